import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useMatches, useNavigate } from 'react-router';
import { usePageTitleOverride } from '../lib/page-title';
import { defaultTitleKey, isRouteHandle } from './route-handle';

function setCanonical(href: string) {
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.append(link);
  }
  link.setAttribute('href', href);
}

/**
 * Per-navigation side effects of the root layout: the document title from the deepest route
 * handle (or the page's own, see usePageTitle), the canonical link, and sending the reserved
 * clinic id 'local' home.
 */
export function NavigationGuard({ publicOrigin }: { publicOrigin: string }) {
  const { t } = useTranslation();
  const matches = useMatches();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();

  const titleKey = matches.map((match) => match.handle).findLast(isRouteHandle)?.titleKey;
  const clinicId = matches.at(-1)?.params.clinicId;
  const pageTitle = usePageTitleOverride();

  useEffect(() => {
    document.title = pageTitle ?? t(titleKey ?? defaultTitleKey);
  }, [t, titleKey, pageTitle]);

  useEffect(() => {
    setCanonical(`${publicOrigin}${pathname}${search}`);
  }, [publicOrigin, pathname, search]);

  useEffect(() => {
    if (clinicId === 'local') void navigate('/', { replace: true });
  }, [clinicId, navigate]);

  return null;
}
