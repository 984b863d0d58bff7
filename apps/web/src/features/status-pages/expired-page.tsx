import EventBusyIcon from '../../lib/icons/event-busy';
import LinkOffIcon from '../../lib/icons/link-off';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePageTitle } from '../../lib/page-title';
import { StatusView } from './status-view';

const noChange = () => () => {};
const isClient = () => true;
const isServerHtml = () => false;

/**
 * A link that cannot be used. When the link's page knew how it ended (`?ended=expired` or
 * `cancelled`) it says that plainly; otherwise the spec's words (not valid, ask for a new one).
 */
export function ExpiredPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // The page's HTML is built once for every visitor, without an address's query: the app first
  // matches it, then says how the link ended (a mismatch would make React drop the HTML).
  const hydrated = useSyncExternalStore(noChange, isClient, isServerHtml);
  const ended = hydrated ? params.get('ended') : null;
  const [heading, text] =
    ended === 'expired'
      ? [t('status.ended.expired.heading'), t('status.ended.expired.text')]
      : ended === 'cancelled'
        ? [t('status.ended.cancelled.heading'), t('status.ended.cancelled.text')]
        : [t('status.expired.heading'), t('status.expired.text')];
  usePageTitle(heading);
  return (
    <StatusView
      image={
        ended === 'expired' ? (
          <EventBusyIcon sx={{ fontSize: 72, color: 'text.secondary' }} />
        ) : (
          <LinkOffIcon sx={{ fontSize: 72, color: 'text.secondary' }} />
        )
      }
      heading={heading}
      text={text}
    />
  );
}
