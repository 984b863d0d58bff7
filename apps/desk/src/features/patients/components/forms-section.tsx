import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { SECTION_PAGE_SIZE, usePatientForms } from '../api/patients';
import { formatDate } from '../patient-dates';
import { ListSection, stateOf } from './list-section';

/** The forms sent to the patient, each opening its request. */
export function FormsSection({ idNumber }: { idNumber: string }) {
  const { t, i18n } = useTranslation('patients');
  const [limit, setLimit] = useState(SECTION_PAGE_SIZE);
  const forms = usePatientForms(idNumber, limit);
  const language = i18n.language;
  return (
    <ListSection
      title={t('forms.title')}
      state={stateOf(forms)}
      empty={t('forms.none')}
      head={[t('forms.form'), t('forms.stage'), t('forms.sent'), t('forms.submitted'), '']}
      row={(form) => {
        const name = form.template_name ?? t('forms.untitled');
        const sent = formatDate(form.created_at, language);
        return (
          <TableRow key={form.id}>
            <TableCell component="th" scope="row">
              {name}
            </TableCell>
            <TableCell>{t(`common:formStatus.${form.stage}`)}</TableCell>
            <TableCell>{sent}</TableCell>
            <TableCell>
              {form.submitted_at ? formatDate(form.submitted_at, language) : '—'}
            </TableCell>
            <TableCell sx={{ textAlign: 'end' }}>
              <Link
                component={RouterLink}
                to={`/forms/${form.id}`}
                aria-label={t('forms.openLabel', { name, date: sent })}
              >
                {t('forms.open')}
              </Link>
            </TableCell>
          </TableRow>
        );
      }}
      onMore={() => setLimit((n) => n + SECTION_PAGE_SIZE * 2)}
    />
  );
}
