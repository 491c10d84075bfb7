/**
 * The offline English NLP shared by the language-model port and the transcript question answering: wink-nlp with
 * its English lite web model (loaded once, lazily, ~100 ms). Tokens are lower-cased lemmas; stop words and
 * punctuation are dropped for retrieval; entities are wink's (MONEY, DATE, TIME, CARDINAL, ORDINAL, DURATION, …).
 */
import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | null = null;
function engine(): Nlp {
  nlp ??= winkNLP(model);
  return nlp;
}

/** One token: its lower-cased form, lemma, wink type (word, number, currency, …) and whether it is a stop word. */
export type Token = { normal: string; lemma: string; type: string; stop: boolean };
/** A named entity found in a text (`type`: MONEY, DATE, TIME, CARDINAL, ORDINAL, DURATION, PERCENT, …). */
export type Entity = { value: string; type: string };

/** The tokens of a text. */
export function tokensOf(text: string): Token[] {
  const e = engine();
  const doc = e.readDoc(text);
  const normal = doc.tokens().out(e.its.normal) as string[];
  const lemma = doc.tokens().out(e.its.lemma as unknown as typeof e.its.normal) as string[];
  const type = doc.tokens().out(e.its.type) as string[];
  const stop = doc.tokens().out(e.its.stopWordFlag) as unknown as boolean[];
  return normal.map((n, i) => ({ normal: n, lemma: (lemma[i] ?? n).toLowerCase(), type: type[i] ?? 'word', stop: stop[i] ?? false }));
}

/** The entities of a text, in order. */
export function entitiesOf(text: string): Entity[] {
  const e = engine();
  return (e.readDoc(text).entities().out(e.its.detail) as unknown as Array<{ value: string; type: string }>).map((x) => ({ value: x.value, type: x.type }));
}

/** Retrieval terms of a text: lemmas of words and numbers that are not stop words (money keeps its amount). */
export function termsOf(text: string): string[] {
  return tokensOf(text)
    .filter((t) => !t.stop && (t.type === 'word' || t.type === 'number' || t.type === 'ordinal' || t.type === 'currency'))
    .map((t) => (t.type === 'currency' ? '$' : t.lemma.replace(/[.'’]+$/, '')))
    .filter((t) => t !== '');
}
