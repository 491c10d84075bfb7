/**
 * Notices (lib/notify) without their host in the main chunk: the host (app/notice-host.tsx: @mantine/notifications'
 * `<Notifications/>`, its transitions and styles) is loaded when the first notice is shown or a user is signed in.
 * A notice shown before the host is there waits in the notifications store and appears when the host mounts.
 */
import { notificationsStore, useNotifications } from '@mantine/notifications';
import { lazy, Suspense, useState } from 'react';
import { NOTICE_POSITION } from '../lib/notify';
import { useSession } from '../lib/session';

/** At most this many notices on screen (more wait in the queue). */
const NOTICE_LIMIT = 3;

// What the host sets when it mounts, set now, so notices shown before it are queued the same way.
notificationsStore.updateState((state) => ({ ...state, limit: NOTICE_LIMIT, defaultPosition: NOTICE_POSITION }));

const NoticeHost = lazy(() => import('./notice-host').then((m) => ({ default: m.NoticeHost })));

/** Mounts the notices' host once a notice is waiting or a user is signed in; nothing before. */
export function Notices() {
  const { notifications, queue } = useNotifications();
  const signedIn = useSession().status === 'authenticated';
  const [wanted, setWanted] = useState(false);
  if (!wanted && (signedIn || notifications.length > 0 || queue.length > 0)) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <NoticeHost limit={NOTICE_LIMIT} />
    </Suspense>
  ) : null;
}
