/** Number templates (spec 002 §5 "Number templates"; docs/numbers.md). */
import type { RouteEntry, Schedule } from '@switchboard/domain';

export interface NumberTemplate {
  id: number;
  company_id: number;
  name: string;
  routes: RouteEntry[];
  schedule: Schedule;
  record: boolean;
  call_transcription_enabled: boolean;
  ai_eav_enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface TemplateInput {
  name: string;
  routes?: RouteEntry[];
  schedule?: Schedule;
  record?: boolean;
  call_transcription_enabled?: boolean;
  ai_eav_enabled?: boolean;
}

/** A company number the page can copy routing from or apply a template to (handed in by the app). */
export interface TemplateNumber {
  id: number;
  label: string;
  routes: RouteEntry[];
}
