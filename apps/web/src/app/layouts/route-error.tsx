import Container from '@mui/material/Container';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { ErrorView } from '../../lib/error-view';
import { PageMain } from './page-main';

/** A route that failed to render or to load its code (e.g. a chunk gone after a deploy). */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => console.error(error), [error]);
  return (
    <PageMain>
      <Container maxWidth="md">
        <ErrorView />
      </Container>
    </PageMain>
  );
}
