import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { EmptyBlock } from '../../components/EmptyBlock';

/** Unknown address. */
export function NotFound() {
  return (
    <EmptyBlock
      title="Page not found"
      titleOrder={1}
      description="The address may be mistyped or the page moved."
      action={
        <Button component={Link} to="/inbox">
          Go to the inbox
        </Button>
      }
    />
  );
}
