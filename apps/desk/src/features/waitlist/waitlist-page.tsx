import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { IntegrationWaitlistEntry } from '@marpe/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useClinicZoneQuery } from '../../lib/clinic-dates';
import { errorText } from '../../lib/field-errors';
import { formatPhone } from '../../lib/format';
import { Page } from '../../lib/page';
import { PageLoading } from '../../lib/page-loading';
import { Section } from '../../lib/section';
import { useWaitlistCaregivers } from './api/clinic-setup';
import { useWaitlistEntries } from './api/list-entries';
import { OfferDialog } from './components/offer-dialog';
import { formatDate, formatInstant } from './waitlist-format';

const isDate = (value: string | null): value is string =>
  value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * `/desk/waitlist`: who waits for a freed time, with which caregiver, for which type and dates,
 * in the order they joined (a page at a time, kept fresh while open); the address holds the
 * filter (`?caregiver=3&date=2027-03-28`). Each entry can be offered a free time by hand. Both
 * roles work here.
 */
export function WaitlistPage() {
  const { t, i18n } = useTranslation('waitlist');
  const language = i18n.language;
  const id = useId();
  const [params, setParams] = useSearchParams();
  const caregiverParam = Number(params.get('caregiver'));
  const caregiverId =
    Number.isInteger(caregiverParam) && caregiverParam > 0 ? caregiverParam : null;
  const dateParam = params.get('date');
  const date = isDate(dateParam) ? dateParam : null;
  const zone = useClinicZoneQuery().data;
  const caregivers = useWaitlistCaregivers();
  const entries = useWaitlistEntries({ caregiverId, date });
  const [offering, setOffering] = useState<IntegrationWaitlistEntry | null>(null);
  const [offerOpen, setOfferOpen] = useState(false);

  function setFilter(name: 'caregiver' | 'date', value: string) {
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value === '') next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );
  }

  const rows = entries.data?.pages.flat() ?? [];
  const filtered = caregiverId !== null || date !== null;

  return (
    <Page title={t('title')}>
      <Stack spacing={3}>
        <Typography color="text.secondary">{t('intro')}</Typography>
        <Stack
          role="search"
          aria-label={t('filters.label')}
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          useFlexGap
          sx={{ alignItems: { sm: 'flex-start' } }}
        >
          <TextField
            select
            label={t('filters.caregiver')}
            value={caregiverId ?? ''}
            onChange={(e) => setFilter('caregiver', e.target.value)}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            sx={{ width: { sm: 260 } }}
          >
            <option value="">{t('filters.allCaregivers')}</option>
            {(caregivers.data ?? []).map((caregiver) => (
              <option key={caregiver.id} value={caregiver.id}>
                {caregiver.name}
              </option>
            ))}
          </TextField>
          <TextField
            type="date"
            label={t('filters.date')}
            value={date ?? ''}
            onChange={(e) => setFilter('date', e.target.value)}
            helperText={t('filters.dateHelp')}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ width: { sm: 260 } }}
          />
          {filtered ? (
            <Button
              onClick={() => setParams(new URLSearchParams(), { replace: true })}
              sx={{ alignSelf: { sm: 'center' } }}
            >
              {t('filters.clear')}
            </Button>
          ) : null}
        </Stack>

        <Section title={t('list.title')} id={`${id}-list`}>
          {entries.isError ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {entries.data ? `${t('list.refreshFailed')} ` : ''}
              {errorText(t, entries.error)}
            </Alert>
          ) : null}
          {entries.isPending ? <PageLoading /> : null}
          {entries.data && rows.length === 0 ? (
            <Typography>{filtered ? t('list.noneFiltered') : t('list.none')}</Typography>
          ) : null}
          {rows.length > 0 ? (
            <TableContainer>
              <Table size="small" aria-labelledby={`${id}-list`}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('list.patient')}</TableCell>
                    <TableCell>{t('list.caregiver')}</TableCell>
                    <TableCell>{t('list.type')}</TableCell>
                    <TableCell>{t('list.dates')}</TableCell>
                    <TableCell>{t('list.joined')}</TableCell>
                    <TableCell>
                      <span className="visually-hidden">{t('list.actions')}</span>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {rows.map((entry) => {
                    const name = `${entry.patient.first_name} ${entry.patient.last_name}`;
                    return (
                      <TableRow key={entry.id}>
                        <TableCell component="th" scope="row">
                          <Link
                            component={RouterLink}
                            to={`/patients/${encodeURIComponent(entry.patient.id_number)}`}
                          >
                            {name}
                          </Link>
                          <Typography variant="body2" color="text.secondary">
                            {t('list.idNumber')} <bdi>{entry.patient.id_number}</bdi> ·{' '}
                            <span className="visually-hidden">{t('list.phone')} </span>
                            <bdi>{formatPhone(entry.patient.phone)}</bdi>
                          </Typography>
                        </TableCell>
                        <TableCell>{entry.caregiver.name}</TableCell>
                        <TableCell>{entry.appointment_type.name}</TableCell>
                        <TableCell>
                          {formatDate(entry.from_date, language)}–
                          {formatDate(entry.to_date, language)}
                          <Typography variant="body2" color="text.secondary">
                            {t(`partOfDay.${entry.part_of_day}`)}
                          </Typography>
                        </TableCell>
                        <TableCell>{formatInstant(entry.joined_at, zone, language)}</TableCell>
                        <TableCell sx={{ textAlign: 'end' }}>
                          <Button
                            variant="outlined"
                            onClick={() => {
                              setOffering(entry);
                              setOfferOpen(true);
                            }}
                          >
                            {t('offer.open')}
                            <span className="visually-hidden"> {name}</span>
                          </Button>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
            </TableContainer>
          ) : null}
          {entries.hasNextPage ? (
            <Button
              sx={{ mt: 2 }}
              onClick={() => void entries.fetchNextPage()}
              loading={entries.isFetchingNextPage}
            >
              {t('list.more')}
            </Button>
          ) : null}
        </Section>
      </Stack>

      {offering ? (
        <OfferDialog
          key={offering.id}
          entry={offering}
          open={offerOpen}
          zone={zone}
          caregivers={caregivers.data ?? []}
          onClose={() => setOfferOpen(false)}
          onExited={() => setOffering(null)}
        />
      ) : null}
    </Page>
  );
}
