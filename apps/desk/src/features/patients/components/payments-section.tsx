import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { localeOf } from '../../../lib/format';
import { SECTION_PAGE_SIZE, usePatientPayments } from '../api/patients';
import { formatDate } from '../patient-dates';
import { ListSection, stateOf } from './list-section';

/** The payment requests made of the patient. */
export function PaymentsSection({ idNumber }: { idNumber: string }) {
  const { t, i18n } = useTranslation('patients');
  const [limit, setLimit] = useState(SECTION_PAGE_SIZE);
  const payments = usePatientPayments(idNumber, limit);
  const language = i18n.language;
  const money = new Intl.NumberFormat(localeOf(language), { style: 'currency', currency: 'ILS' });
  return (
    <ListSection
      title={t('payments.title')}
      state={stateOf(payments)}
      empty={t('payments.none')}
      head={[
        t('payments.amount'),
        t('payments.purpose'),
        t('payments.stage'),
        t('payments.created'),
        '',
      ]}
      row={(payment) => {
        const created = formatDate(payment.created_at, language);
        return (
          <TableRow key={payment.id}>
            <TableCell component="th" scope="row">
              {money.format(payment.amount)}
            </TableCell>
            <TableCell>{payment.purpose || payment.description || '—'}</TableCell>
            <TableCell>
              {t(`common:paymentStatus.${payment.stage}`)}
              {payment.stage === 'paid' && payment.card_last4 ? (
                <Typography component="span" color="text.secondary">
                  {' '}
                  (<bdi>{payment.card_last4}</bdi>)
                </Typography>
              ) : null}
            </TableCell>
            <TableCell>{created}</TableCell>
            <TableCell sx={{ textAlign: 'end' }}>
              <Link
                component={RouterLink}
                to="/payments"
                aria-label={t('payments.openLabel', { date: created })}
              >
                {t('payments.open')}
              </Link>
            </TableCell>
          </TableRow>
        );
      }}
      onMore={() => setLimit((n) => n + SECTION_PAGE_SIZE * 2)}
    />
  );
}
