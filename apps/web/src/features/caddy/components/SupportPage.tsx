/**
 * `/caddy/support`: a report to support with files (docs/consumer-area.md "Support"). The limits are shown and checked
 * before anything is sent (at most 5 files, 10 MB each, PNG, JPEG, GIF, WebP, PDF or plain text; the server checks the
 * bytes again). Files are uploaded one by one (`POST /caddy/support/upload-file`), then the report names them by id
 * (`POST /caddy/support/customer-report`), so a refused file says which one.
 */
import { Alert, Button, Card, CloseButton, FileButton, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { CADDY_UPLOAD_MAX_BYTES, CADDY_UPLOAD_TYPES } from '@switchboard/contracts';
import { IconCheck, IconPaperclip } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useCaddyProfile, uploadSupportFile, useSendReport } from '../api/account';
import { CaddyError, errorText } from '../api/client';
import { CaddyPage, FormError } from './ui';

const MAX_FILES = 5;
const TYPE_NAMES = 'PNG, JPEG, GIF, WebP, PDF or plain text';
const MB = 1024 * 1024;

/** Why `file` cannot be sent, else null. */
function fileProblem(file: File): string | null {
  if (file.size > CADDY_UPLOAD_MAX_BYTES) return `${file.name} is ${(file.size / MB).toFixed(1)} MB: files may be up to ${CADDY_UPLOAD_MAX_BYTES / MB} MB.`;
  if (file.size === 0) return `${file.name} is empty.`;
  if (!(CADDY_UPLOAD_TYPES as readonly string[]).includes(file.type)) return `${file.name} is not a ${TYPE_NAMES} file.`;
  return null;
}

function size(bytes: number): string {
  return bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The support page. */
export function SupportPage() {
  const profile = useCaddyProfile();
  const report = useSendReport();
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [email, setEmail] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  useEffect(() => {
    if (profile.data?.email) setEmail((e) => e || profile.data.email || '');
  }, [profile.data?.email]);

  const pick = (picked: File[]) => {
    const problems = picked.map(fileProblem).filter((p): p is string => p !== null);
    const fine = picked.filter((f) => fileProblem(f) === null);
    const next = [...files, ...fine].slice(0, MAX_FILES);
    if (files.length + fine.length > MAX_FILES) problems.push(`At most ${MAX_FILES} files.`);
    setFiles(next);
    setProblem(problems.length ? problems.join(' ') : null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    setUploading(true);
    const ids: string[] = [];
    try {
      for (const file of files) {
        try {
          ids.push((await uploadSupportFile(file)).id);
        } catch (error) {
          setProblem(`${file.name}: ${errorText(error)}`);
          return;
        }
      }
    } finally {
      setUploading(false);
    }
    report.mutate(
      { subject: subject.trim(), message: message.trim(), email: email.trim() || undefined, fileIds: ids },
      {
        onSuccess: (r) => {
          setSent(r.message);
          setSubject('');
          setMessage('');
          setFiles([]);
        },
      },
    );
  };
  const fieldErrors = report.error instanceof CaddyError ? report.error.fieldErrors : {};

  return (
    <CaddyPage title="Help and support" lead="Tell us what went wrong. Screenshots help.">
      {sent ? (
        <Alert
          color="teal"
          icon={<IconCheck size={18} />}
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setSent(null)}
          data-testid="caddy-report-sent"
        >
          {sent}
        </Alert>
      ) : null}
      <Card withBorder radius="md">
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Stack gap="sm">
            <TextInput
              label="Subject"
              value={subject}
              onChange={(e) => setSubject(e.currentTarget.value)}
              maxLength={200}
              required
              error={fieldErrors.subject?.[0]}
            />
            <Textarea
              label="What happened?"
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
              autosize
              minRows={4}
              maxRows={10}
              maxLength={5000}
              required
              error={fieldErrors.message?.[0]}
            />
            <TextInput
              label="Reply to (optional)"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              autoComplete="email"
              maxLength={254}
              error={fieldErrors.email?.[0]}
            />
            <Stack gap={4}>
              <Group gap="sm">
                <FileButton onChange={pick} accept={CADDY_UPLOAD_TYPES.join(',')} multiple>
                  {(props) => (
                    <Button {...props} variant="default" leftSection={<IconPaperclip size={16} aria-hidden />} disabled={files.length >= MAX_FILES}>
                      Attach files
                    </Button>
                  )}
                </FileButton>
              </Group>
              <Text size="xs" c="dimmed" id="caddy-file-limits">
                Up to {MAX_FILES} files, {CADDY_UPLOAD_MAX_BYTES / MB} MB each: {TYPE_NAMES}. Only our support team can see them.
              </Text>
              {files.length ? (
                <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Attached files">
                  {files.map((f, i) => (
                    <Group component="li" key={`${f.name}-${i}`} justify="space-between" wrap="nowrap" gap="xs" data-testid="caddy-attached-file">
                      <Text size="sm" truncate>
                        {f.name} · {size(f.size)}
                      </Text>
                      <CloseButton aria-label={`Remove ${f.name}`} onClick={() => setFiles(files.filter((_, j) => j !== i))} />
                    </Group>
                  ))}
                </Stack>
              ) : null}
            </Stack>
            {problem ? (
              <Alert color="red" role="alert" data-testid="caddy-file-problem">
                {problem}
              </Alert>
            ) : null}
            {report.error && !Object.keys(fieldErrors).length ? <FormError error={report.error} /> : null}
            <Button type="submit" loading={uploading || report.isPending} disabled={!subject.trim() || !message.trim()}>
              Send to support
            </Button>
          </Stack>
        </form>
      </Card>
    </CaddyPage>
  );
}
