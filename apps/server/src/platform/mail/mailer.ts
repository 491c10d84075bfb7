/**
 * Outgoing e-mail. Every message is recorded in `mail_outbox`; with `SMTP_URL` set a job
 * (`mail.deliver`) sends it through nodemailer, otherwise the development outbox is where a
 * person reads it (the app's "Outbox" page, `GET /api/dev/outbox`).
 */
import nodemailer from 'nodemailer';
import type { Db, DbOrTx } from '../db/db.js';
import type { Queue } from '../queue.js';
import { mailRepository, type OutboxRow } from './mail.repository.js';

export type MailMessage = { to: string; subject: string; text: string; html?: string };

export class Mailer {
  private readonly transport: ReturnType<typeof nodemailer.createTransport> | null;

  constructor(
    private readonly db: Db,
    private readonly queue: Queue,
    smtpUrl: string | undefined,
    private readonly from: string,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
    queue.define<{ id: number }>('mail.deliver', async ({ id }) => this.deliver(id));
  }

  /** Records the message and schedules delivery (in the caller's transaction when given). */
  async send(message: MailMessage, tx?: DbOrTx): Promise<number> {
    const db = tx ?? this.db;
    const id = await mailRepository.insert(db, {
      to_address: message.to,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html ?? null,
      transport: this.transport ? 'smtp' : 'outbox',
      delivered_at: this.transport ? null : new Date(),
    });
    if (this.transport) await this.queue.enqueue('mail.deliver', { id }, { singletonKey: `mail-${id}` }, db);
    return id;
  }

  /** Job handler: sends one recorded message once (idempotent on `delivered_at`). */
  async deliver(id: number): Promise<void> {
    const row = await mailRepository.find(this.db, id);
    if (!row || row.delivered_at || !this.transport) return;
    await this.transport.sendMail({ from: this.from, to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body ?? undefined });
    await mailRepository.markDelivered(this.db, id);
  }

  /** The development outbox, newest first; only the mail addressed to `to` when given. */
  async outbox(limit = 50, to?: string): Promise<OutboxRow[]> {
    return mailRepository.list(this.db, limit, to);
  }
}
