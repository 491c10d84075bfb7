/** The first page of a fax as a small picture (pdfjs-dist, loaded on first use); a button that opens the viewer. */
import { UnstyledButton } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { renderPdfPage } from '../../../components/FaxViewer';

export function FaxThumbnail({ url, label, onOpen }: { url: string | null; label: string; onOpen: () => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!url || !canvas.current) return;
    renderPdfPage(url, 1, canvas.current, 56).catch(() => setFailed(true));
  }, [url]);
  if (!url || failed) return <IconFileTypePdf size={40} stroke={1.2} aria-hidden />;
  return (
    <UnstyledButton onClick={onOpen} aria-label={`Open ${label}`} style={{ border: '1px solid var(--mantine-color-gray-4)', lineHeight: 0 }}>
      <canvas ref={canvas} width={56} height={72} />
    </UnstyledButton>
  );
}
