/**
 * Notices (foundation §4 "Notifications"): types neutral, success, warn, danger and loading; a
 * notice can be shown, updated, hidden or cleared. The standard notice replaces the ones on screen,
 * hides itself after NOTICE_AUTO_HIDE_MS (5000 ms) and appears centred at the bottom
 * (NOTICE_POSITION): at the top it covered the page's title and header actions.
 * Built on @mantine/notifications (the <Notifications position={NOTICE_POSITION}/> host is mounted
 * in app/providers).
 */
import { notifications } from '@mantine/notifications';
import { ERROR_TITLE, NOTICE_AUTO_HIDE_MS, type NotificationType } from '@switchboard/domain';
import type { ReactNode } from 'react';

/** Where notices appear: centred (foundation §4), at the bottom so they never cover a page's title. */
export const NOTICE_POSITION = 'bottom-center' as const;

export interface Notice {
  type?: NotificationType;
  title?: ReactNode;
  message: ReactNode;
  /** ms before it hides itself; false keeps it; default NOTICE_AUTO_HIDE_MS (loading: false). */
  autoClose?: number | false;
  /** Keep the notices already on screen instead of replacing them. */
  keepOthers?: boolean;
  id?: string;
}

const COLORS: Record<NotificationType, string> = {
  neutral: 'blue',
  success: 'teal',
  warn: 'yellow',
  danger: 'red',
  loading: 'blue',
};

function toData(notice: Notice, id: string) {
  const type = notice.type ?? 'neutral';
  return {
    id,
    title: notice.title,
    message: notice.message,
    color: COLORS[type],
    loading: type === 'loading',
    autoClose: notice.autoClose ?? (type === 'loading' ? false : NOTICE_AUTO_HIDE_MS),
    withCloseButton: true,
    'data-notice-type': type,
  };
}

let counter = 0;

/** Shows a notice; returns its id (for update/hide). */
function show(notice: Notice): string {
  if (!notice.keepOthers) notifications.clean();
  const id = notice.id ?? `notice-${++counter}`;
  notifications.show(toData(notice, id));
  return id;
}

/** Changes a notice already on screen (e.g. loading → success). */
function update(id: string, notice: Notice): void {
  notifications.update(toData(notice, id));
}

/** Hides one notice. */
function hide(id: string): void {
  notifications.hide(id);
}

/** Removes every notice. */
function clear(): void {
  notifications.clean();
}

/** Shorthand for a success notice. */
function success(message: ReactNode, title?: ReactNode): string {
  return show({ type: 'success', message, title });
}

/** Shorthand for an error notice that stays `ms` long. */
function danger(message: ReactNode, ms: number, title: ReactNode = ERROR_TITLE): string {
  return show({ type: 'danger', message, title, autoClose: ms });
}

export const notify = { show, update, hide, clear, success, danger };
