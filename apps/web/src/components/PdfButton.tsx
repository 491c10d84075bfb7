import { Button } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';
import { HttpError } from '../lib/http';
import { notify } from '../lib/notify';

/** Saves a Blob under `name` through a temporary link. */
function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * "Download PDF": asks the server for the PDF of what is on screen (an authenticated GET answering
 * `application/pdf`, docs/analytics.md "PDF downloads") and saves it as `fileName`.
 */
export function PdfButton({ download, fileName, disabled }: { download: () => Promise<Blob>; fileName: string; disabled?: boolean }) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      saveBlob(await download(), fileName);
    } catch (error) {
      // 400/403/422 are shown by lib/http; anything else is said here.
      if (!(error instanceof HttpError) || ![400, 403, 422].includes(error.status)) {
        notify.danger('The PDF could not be made. Please try again.', 8000);
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="default" leftSection={<IconFileTypePdf size={16} />} onClick={() => void run()} loading={busy} disabled={disabled}>
      Download PDF
    </Button>
  );
}
