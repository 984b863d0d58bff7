import { Outlet } from 'react-router';
import { LegalFooter } from './legal-footer';
import { PageMain } from './page-main';

/** Full height below the app bar, content centred; the footer is fixed, so main keeps room for it. */
export function LandingLayout() {
  return (
    <>
      <PageMain
        sx={{
          alignItems: 'center',
          justifyContent: 'center',
          textAlign: 'center',
          px: 2,
          pt: 4,
          // The footer wraps to two lines on narrow screens.
          pb: { xs: 14, sm: 10 },
        }}
      >
        <Outlet />
      </PageMain>
      <LegalFooter fixed />
    </>
  );
}
