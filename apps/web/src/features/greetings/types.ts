/** Shapes of the greetings endpoints (spec 002 "Greetings"; docs/telephony.md issue 3). */

/** A greeting: text spoken by a voice, or uploaded audio; `url` plays in the browser and in calls. */
export interface Greeting {
  id: number;
  company_id: number;
  name: string;
  content: string;
  voice: string;
  source: 'tts' | 'upload';
  url: string;
  created_at: string;
  updated_at: string;
}

/** A speech voice (GET /api/greetings/voices). */
export interface Voice {
  id: string;
  name: string;
  language: string;
}
