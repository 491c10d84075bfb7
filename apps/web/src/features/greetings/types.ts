/** Shapes of the greetings endpoints (spec 002 "Greetings"), inferred from packages/contracts. */
import type { GreetingDto, Infer, VoiceSchema } from '@switchboard/contracts';

/** A greeting: text spoken by a voice, or uploaded audio; `url` plays in the browser and in calls. */
export type Greeting = GreetingDto;

/** A speech voice (GET /api/greetings/voices). */
export type Voice = Infer<typeof VoiceSchema>;
