import { Card, Group, Progress, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconLoader2 } from '@tabler/icons-react';
import { jobTitle, useNumberJobs, useNumberJobsLive } from '../realtime/number-jobs';

/** Progress bars of the running number jobs; a finished one stays 5 s with its result. */
export function NumberJobsPanel() {
  useNumberJobsLive();
  const jobs = useNumberJobs();
  if (jobs.length === 0) return null;
  return (
    <Stack gap="xs" mb="md" data-testid="number-jobs">
      {jobs.map((job) => (
        <Card key={job.batchId} withBorder radius="md" padding="sm" data-testid="number-job" data-finished={job.finished}>
          <Group justify="space-between" mb={6}>
            <Group gap={6}>
              {job.finished ? <IconCircleCheck size={16} color="var(--mantine-color-teal-6)" /> : <IconLoader2 size={16} />}
              <Text size="sm" fw={500}>
                {jobTitle(job)}
              </Text>
            </Group>
            <Text size="sm" c="dimmed">
              {job.progress}%
            </Text>
          </Group>
          <Progress
            value={job.progress}
            color={job.finished ? (job.failed ? 'yellow' : 'teal') : 'blue'}
            animated={!job.finished}
            aria-label={`${jobTitle(job)} progress`}
          />
        </Card>
      ))}
    </Stack>
  );
}
