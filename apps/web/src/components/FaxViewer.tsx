/**
 * A PDF viewer for faxes (docs/fax.md "Web"): every page rendered with pdfjs-dist, which is loaded
 * only when a viewer or a thumbnail is shown (a dynamic import: its own chunk). Shared by the /fax
 * screen and the inbox's fax items. `url` is same-origin (`/api/faxes/{id}/file` or a `/files/` URL)
 * and fetched with the session cookie.
 */
import { Alert, Anchor, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

type PdfJs = typeof import('pdfjs-dist');
let pdfjsPromise: Promise<PdfJs> | null = null;

/** pdfjs-dist with its worker, loaded once on first use. */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]).then(([pdfjs, worker]) => {
    pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
    return pdfjs;
  });
  return pdfjsPromise;
}

/** Renders page `pageNumber` (1-based) of the PDF at `url` into `canvas`, `width` CSS pixels wide. */
export async function renderPdfPage(url: string, pageNumber: number, canvas: HTMLCanvasElement, width: number): Promise<number> {
  const pdfjs = await loadPdfJs();
  const doc = await pdfjs.getDocument({ url, withCredentials: true }).promise;
  const page = await doc.getPage(pageNumber);
  const base = page.getViewport({ scale: 1 });
  const ratio = window.devicePixelRatio || 1;
  const viewport = page.getViewport({ scale: (width / base.width) * ratio });
  canvas.width = viewport.width;
  canvas.height = viewport.height;
  canvas.style.width = `${width}px`;
  canvas.style.height = `${viewport.height / ratio}px`;
  await page.render({ canvas, viewport }).promise;
  return doc.numPages;
}

function PdfPages({ url }: { url: string }) {
  const holder = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [pages, setPages] = useState(0);

  useEffect(() => {
    let cancelled = false;
    const el = holder.current;
    if (!el) return;
    el.replaceChildren();
    const width = Math.min(760, el.clientWidth || 760);
    (async () => {
      const pdfjs = await loadPdfJs();
      const doc = await pdfjs.getDocument({ url, withCredentials: true }).promise;
      if (cancelled) return;
      setPages(doc.numPages);
      for (let n = 1; n <= doc.numPages && !cancelled; n++) {
        const page = await doc.getPage(n);
        const base = page.getViewport({ scale: 1 });
        const ratio = window.devicePixelRatio || 1;
        const viewport = page.getViewport({ scale: (width / base.width) * ratio });
        const canvas = document.createElement('canvas');
        canvas.width = viewport.width;
        canvas.height = viewport.height;
        canvas.style.width = `${width}px`;
        canvas.style.border = '1px solid var(--mantine-color-gray-4)';
        canvas.setAttribute('aria-label', `Page ${n} of ${doc.numPages}`);
        canvas.setAttribute('role', 'img');
        el.appendChild(canvas);
        await page.render({ canvas, viewport }).promise;
      }
      if (!cancelled) setState('ready');
    })().catch(() => {
      if (!cancelled) setState('error');
    });
    return () => {
      cancelled = true;
    };
  }, [url]);

  return (
    <Stack gap="xs">
      {state === 'loading' && (
        <Group gap="xs">
          <Loader size="sm" />
          <Text size="sm">Opening the fax…</Text>
        </Group>
      )}
      {state === 'error' && (
        <Alert color="red" title="The fax could not be opened">
          The PDF could not be loaded. Try downloading it instead.
        </Alert>
      )}
      {state === 'ready' && (
        <Text size="sm" c="dimmed">
          {pages} page{pages === 1 ? '' : 's'}
        </Text>
      )}
      <Stack gap="sm" align="center" ref={holder} data-testid="fax-pages" />
    </Stack>
  );
}

interface FaxViewerProps {
  /** Same-origin URL of the PDF; null closes the viewer. */
  url: string | null;
  title?: string;
  onClose: () => void;
}

/** The fax viewer: a modal with every page of the PDF and a download link. */
export function FaxViewer({ url, title = 'Fax', onClose }: FaxViewerProps) {
  return (
    <Modal opened={url !== null} onClose={onClose} title={title} size="xl" fullScreen={typeof window !== 'undefined' && window.innerWidth < 600}>
      {url && (
        <Stack>
          <Anchor href={url} target="_blank" rel="noopener" size="sm">
            Download PDF
          </Anchor>
          <PdfPages url={url} />
        </Stack>
      )}
    </Modal>
  );
}
