/**
 * One reader for `multipart/form-data` requests (`@fastify/multipart`, registered in `app.ts`
 * with its size limits). Every upload route (contact import, message media, campaign media,
 * greeting audio) reads its parts here, so limits, empty-file handling, array field names and the
 * input-hygiene check are the same everywhere.
 */
import type { FastifyRequest } from 'fastify';
import { assertCleanFields } from './input-hygiene.js';

/** A file taken from a request, held in memory (the multipart plugin caps its size). */
export type UploadedFile = { filename: string; mimetype: string; data: Buffer };

/** What {@link readMultipart} returns: text fields and the files of the wanted field names. */
export type MultipartForm = {
  /** Text fields. A name given as `name[]` / `name[0]`, or listed in `arrays`, collects a string[]; others keep their last value. */
  fields: Record<string, string | string[]>;
  /** Non-empty files whose field name (without `[]`/`[n]`) is in `fileFields`, in request order. */
  files: Array<UploadedFile & { field: string }>;
};

/**
 * Reads every part of a multipart request. Empty files are skipped (browsers send one when no
 * file was picked); files of other field names are drained and dropped. Text fields and file names
 * pass through `assertCleanFields` (422 on NUL bytes or invalid UTF-8).
 * @param opts.fileFields field names whose files are kept (e.g. `['file']`, `['media']`).
 * @param opts.arrays field names that always collect a list, even when sent without brackets.
 * @returns `{fields, files}`; a request that is not multipart answers empty fields and no files.
 * @throws ValidationError (422) from the input-hygiene check.
 */
export async function readMultipart(req: FastifyRequest, opts: { fileFields: readonly string[]; arrays?: readonly string[] }): Promise<MultipartForm> {
  const fields: Record<string, string | string[]> = {};
  const files: MultipartForm['files'] = [];
  if (!req.isMultipart()) return { fields, files };
  for await (const part of req.parts()) {
    const m = /^(.+?)\[(\d*)\]$/.exec(part.fieldname);
    const name = m ? m[1]! : part.fieldname;
    if (part.type === 'file') {
      const data = await part.toBuffer();
      if (opts.fileFields.includes(name) && data.length > 0) files.push({ field: name, filename: part.filename, mimetype: part.mimetype, data });
    } else if (m || opts.arrays?.includes(name)) {
      const prev = fields[name];
      const list = Array.isArray(prev) ? prev : prev === undefined ? [] : [prev];
      list.push(String(part.value));
      fields[name] = list;
    } else {
      fields[name] = String(part.value);
    }
  }
  assertCleanFields(fields, files);
  return { fields, files };
}
