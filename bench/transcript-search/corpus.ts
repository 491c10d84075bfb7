/**
 * The generated transcripts of bench/transcript-search: dealership calls with a realistic vocabulary, loaded into
 * `call_search_docs` in bulk SQL, one statement per batch (docs/call-intelligence.md "Search at scale").
 *
 * Each call has 6-12 alternating agent/client lines from the dealership phrases below (the first lines of each list
 * are picked most often: "appointment" is in ~40 % of calls, "oil change" in ~45 %), then three lines with slots
 * filled from Zipf-distributed lists (the k-th most common entry about 1/k as often as the first):
 *
 * - the client: "This is {first name} {surname}, calling about my {model}." (40 first names, 40 models, 20,000
 *   generated surnames: the long tail of a real vocabulary, most of them in a handful of calls);
 * - the agent: "I have you down at {house number} {street} Road, {first name}." (5,000 generated street names);
 * - in 60 % of calls the client: "The {part} is making a strange noise." (60 parts, many of two words).
 *
 * The documents are written as the product writes them (call-intelligence.indexing.ts `indexTranscript` and the
 * repository's `upsertDoc`): the segments as JSON, `to_tsvector('english', …)` of all the text (lines joined by a
 * newline) and of each speaker's lines. Calls are spread over two years in call order (documents are written when
 * a transcript completes, so the table grows in time order as in production). Deterministic: the same call number
 * always gets the same text.
 */
import type { Client } from 'pg';

/** Agent lines (common first). */
export const AGENT = [
  'Thanks for calling, how can I help you today?',
  'Let me check that for you.',
  'We can get you in on Tuesday morning.',
  'The total comes to three hundred and forty nine dollars.',
  'Would you like me to book the appointment?',
  'Our service department opens at seven thirty.',
  'We have that model in stock in silver and black.',
  'I can transfer you to the parts counter.',
  'The oil change special is forty nine ninety five.',
  'Can I get your name and a good callback number?',
  'The warranty covers the transmission for five years.',
  'We offer financing with zero percent for sixty months.',
  'The alignment and tire rotation take about an hour.',
  'Your vehicle is ready for pickup.',
  'We can order the catalytic converter by Thursday.',
];
/** Client lines (common first). */
export const CLIENT = [
  'Hi, I have a question about my car.',
  'Yes, that works for me.',
  'How much would that cost?',
  'I need an oil change and new brake pads.',
  'Do you have any trucks available for a test drive?',
  'My check engine light came on yesterday.',
  'Can I trade in my old sedan?',
  'What time do you close on Saturday?',
  'I was quoted a different price last week.',
  'The air conditioning is blowing warm air.',
  'I would like to schedule a state inspection.',
  'Is the hybrid still under recall?',
  'My windshield has a crack from a rock.',
  'Do you sell winter tires for a pickup?',
  'I want to cancel my appointment.',
];
/** First names (Zipf: most common first). */
export const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth',
  'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen',
  'Christopher', 'Lisa', 'Daniel', 'Nancy', 'Matthew', 'Betty', 'Anthony', 'Sandra', 'Mark', 'Margaret',
  'Donald', 'Ashley', 'Steven', 'Kimberly', 'Andrew', 'Emily', 'Paul', 'Donna', 'Joshua', 'Michelle',
]; // prettier-ignore
/** Vehicle models (Zipf). */
export const MODELS = [
  'Camry', 'Civic', 'Accord', 'Corolla', 'Silverado', 'Tacoma', 'Explorer', 'Escape', 'Wrangler', 'Outback',
  'Highlander', 'Tundra', 'Sierra', 'Mustang', 'Malibu', 'Altima', 'Sentra', 'Rogue', 'Pathfinder', 'Equinox',
  'Traverse', 'Tahoe', 'Suburban', 'Forester', 'Impreza', 'Elantra', 'Sonata', 'Tucson', 'Odyssey', 'Pilot',
  'Ridgeline', 'Frontier', 'Colorado', 'Ranger', 'Bronco', 'Maverick', 'Compass', 'Cherokee', 'Durango', 'Charger',
]; // prettier-ignore
/** Parts (Zipf). */
export const PARTS = [
  'brake pads', 'battery', 'tires', 'oil filter', 'spark plugs', 'wiper blades', 'alternator', 'starter', 'radiator',
  'water pump', 'timing belt', 'serpentine belt', 'fuel pump', 'thermostat', 'air filter', 'cabin filter', 'headlight',
  'tail light', 'muffler', 'exhaust pipe', 'shocks', 'struts', 'ball joint', 'tie rod', 'control arm', 'wheel bearing',
  'axle', 'brake rotors', 'brake caliper', 'master cylinder', 'power steering pump', 'head gasket', 'valve cover gasket',
  'oxygen sensor', 'airflow sensor', 'ignition coil', 'fuel injector', 'throttle body', 'egr valve', 'transmission fluid',
  'coolant hose', 'heater core', 'blower motor', 'ac compressor', 'condenser', 'evaporator', 'door lock actuator',
  'window regulator', 'side mirror', 'sunroof motor', 'seat belt', 'airbag module', 'horn', 'fuse box', 'ground strap',
  'sway bar link', 'motor mount', 'drive shaft', 'differential', 'transfer case',
]; // prettier-ignore

/** Sizes of the generated long-tail lists. */
export const SURNAMES = 20_000;
export const STREETS = 5_000;

const SYLLABLES = ['ba', 'ko', 'mi', 'ru', 'ta', 'lo', 'ni', 'du', 'sa', 'vo', 'ki', 'ma', 'po', 'zu', 'ga', 'ri', 'fo', 'na', 'ti', 'ho'];
/** The generated word of rank `r` (1-based): three or four syllables and an ending, capitalised (`Kobaman`). */
function generatedWord(r: number, ending: string): string {
  const n = SYLLABLES.length;
  let s = SYLLABLES[r % n]! + SYLLABLES[Math.floor(r / n) % n]! + SYLLABLES[Math.floor(r / n ** 2) % n]!;
  if (r >= n ** 3) s += SYLLABLES[Math.floor(r / n ** 3) % n]!;
  return s[0]!.toUpperCase() + s.slice(1) + ending;
}
/** The surname of Zipf rank `r` (1 = most common). */
export const surname = (r: number) => generatedWord(r, 'man');
/** The street name of Zipf rank `r`. */
export const street = (r: number) => generatedWord(r + 7919, 'dor');

/**
 * SQL of a Zipf rank (s = 1) in 1..n for slot `slot` of call `g`: `floor((n + 1)^u)` for a pseudo-random u in
 * [0, 1) from PostgreSQL's `hashint8`, so rank k comes about 1/k as often as rank 1.
 */
const zipf = (n: number, slot: number) => `least(${n}, floor(power(${n + 1}, (hashint8(g * 16 + ${slot}) & 2147483647) / 2147483648.0))::int)`;
/** The line-pick of the dealership phrases: floor(n · r²) for a pseudo-random r leans to the first lines. */
const pick = (arr: string, n: number, seed: string) => `(${arr})[1 + floor(${n} * power(((${seed}) % 1000) / 1000.0, 2))::int]`;

/**
 * Inserts calls `from`..`to` (call ids, inclusive) of `companyId`, on `numberIds` in turn, `started_at` spread
 * evenly over the two years before `end` in call order (with up to 10 minutes of jitter).
 */
export async function loadCalls(client: Client, companyId: number, numberIds: number[], from: number, to: number, total: number, end: Date): Promise<void> {
  const surnames = Array.from({ length: SURNAMES }, (_, i) => surname(i + 1));
  const streets = Array.from({ length: STREETS }, (_, i) => street(i + 1));
  await client.query(
    `with calls as (
       select g, 6 + (g % 7)::int as n, ${zipf(FIRST_NAMES.length, 1)} as first, ${zipf(SURNAMES, 2)} as sur,
              ${zipf(MODELS.length, 3)} as model, ${zipf(STREETS, 4)} as street, ${zipf(PARTS.length, 5)} as part,
              (hashint8(g * 16 + 6) & 1023) < 614 as has_part
       from generate_series($1::bigint, $2::bigint) g
     ), segs as (
       select g, k, case when k % 2 = 0 then 1 else 2 end as speaker,
              case when k % 2 = 0 then ${pick('$3::text[]', AGENT.length, '(g * 7919 + k * 104729)')}
                   else ${pick('$4::text[]', CLIENT.length, '(g * 6271 + k * 15485863)')} end as text
       from calls, generate_series(0, n - 1) k
       union all
       select g, n, 2, format('This is %s %s, calling about my %s.', ($5::text[])[first], ($6::text[])[sur], ($7::text[])[model]) from calls
       union all
       select g, n + 1, 1, format('I have you down at %s %s Road, %s.', 100 + g % 9900, ($8::text[])[street], ($5::text[])[first]) from calls
       union all
       select g, n + 2, 2, format('The %s is making a strange noise.', ($9::text[])[part]) from calls where has_part
     ), docs as (
       select g,
              jsonb_agg(jsonb_build_object('speaker', speaker, 'start', k * 6, 'end', k * 6 + 5, 'text', text) order by k) as segments,
              string_agg(text, E'\\n' order by k) as all_text,
              coalesce(string_agg(text, E'\\n' order by k) filter (where speaker = 1), '') as agent_text,
              coalesce(string_agg(text, E'\\n' order by k) filter (where speaker = 2), '') as client_text
       from segs group by g
     )
     insert into call_search_docs (call_id, company_id, number_id, transcript_id, started_at, duration_s, direction, caller,
                                   answer_status, answered_by, qualification, tag_ids, segments, tsv_all, tsv_agent, tsv_client)
     select g, $10, ($11::bigint[])[1 + g % cardinality($11::bigint[])], g,
            $13::timestamptz - make_interval(secs => (($12 - g) * (730.0 * 86400 / $12)) + (hashint8(g * 16 + 7) & 1023) * 0.6),
            30 + g % 600, 'inbound', '+1' || (201 + g % 699) || lpad(((g * 7919) % 9999991)::text, 7, '0'), 1 + g % 3, null,
            case when g % 4 = 0 then 1 else null end, '{}', segments,
            to_tsvector('english', all_text), to_tsvector('english', agent_text), to_tsvector('english', client_text)
     from docs order by g`,
    [from, to, AGENT, CLIENT, FIRST_NAMES, surnames, MODELS, streets, PARTS, companyId, numberIds, total, end],
  );
}
