import Container from '@mui/material/Container';
import { Outlet } from 'react-router';
import { LegalFooter } from './legal-footer';
import { PageMain } from './page-main';

/** Every page except the landing: a plain centred column, the legal links below it. */
export function ContainerLayout() {
  return (
    <>
      <PageMain>
        <Container maxWidth="md" sx={{ py: { xs: 3, sm: 5 } }}>
          <Outlet />
        </Container>
      </PageMain>
      <LegalFooter />
    </>
  );
}
