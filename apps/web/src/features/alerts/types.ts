/** Types of alerts, inferred from the contracts (spec 001 "Alert"). */
import type {
  Alert as AlertSchema,
  AlertCounts as AlertCountsSchema,
  AlertHistoryEntry as AlertHistoryEntrySchema,
  AlertDismissReason as AlertDismissReasonSchema,
  AlertState as AlertStateSchema,
  AlertType as AlertTypeSchema,
  MonitorSettings as MonitorSettingsSchema,
  Infer,
  PageMeta as PageMetaSchema,
} from '@switchboard/contracts';

export type Alert = Infer<typeof AlertSchema>;
export type AlertCounts = Infer<typeof AlertCountsSchema>;
export type AlertHistoryEntry = Infer<typeof AlertHistoryEntrySchema>;
export type AlertDismissReason = Infer<typeof AlertDismissReasonSchema>;
export type AlertState = Infer<typeof AlertStateSchema>;
export type AlertType = Infer<typeof AlertTypeSchema>;
export type MonitorSettings = Infer<typeof MonitorSettingsSchema>;
export type PageMeta = Infer<typeof PageMetaSchema>;
