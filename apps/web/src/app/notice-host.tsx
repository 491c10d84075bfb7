/**
 * The notices' host (@mantine/notifications' `<Notifications/>` with its styles), loaded as its own chunk when the
 * first notice is shown or a user signs in (app/notices.tsx), so the sign-in page does not download it up front.
 */
import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import { NOTICE_POSITION } from '../lib/notify';

/** Where lib/notify's notices appear: centred at the bottom (foundation §4), at most `limit` at a time. */
export function NoticeHost({ limit }: { limit: number }) {
  return <Notifications position={NOTICE_POSITION} limit={limit} zIndex={1000} />;
}
