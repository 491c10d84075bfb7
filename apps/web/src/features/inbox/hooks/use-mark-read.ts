/** Marks a conversation read when it is opened, and again when new unread items arrive while it is open. */
import { useEffect, useRef } from 'react';
import { useReadAll } from '../api/read-all';

export function useMarkRead(conversationId: number | null, unread: number | undefined) {
  const readAll = useReadAll();
  const lastOpened = useRef<number | null>(null);
  const { mutate } = readAll;
  useEffect(() => {
    if (conversationId === null) return;
    const firstOpen = lastOpened.current !== conversationId;
    lastOpened.current = conversationId;
    if (firstOpen || (unread ?? 0) > 0) mutate(conversationId);
  }, [conversationId, unread, mutate]);
}
