import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
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
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { errorText } from '../../lib/field-errors';
import { formatPhone } from '../../lib/format';
import { Page } from '../../lib/page';
import { PageLoading } from '../../lib/page-loading';
import { useDebounced } from '../../lib/patient-field';
import { Section } from '../../lib/section';
import { usePatientsPage } from './api/patients';

/**
 * `/desk/patients`: the clinic's patients, found by name, ID number or phone as one types (every
 * patient by name when nothing is typed), a page at a time. The address holds the search and the
 * page (`?q=כהן&page=2`), so coming back from a patient shows the same list.
 */
export function PatientsPage() {
  const { t } = useTranslation('patients');
  const id = useId();
  const [params, setParams] = useSearchParams();
  const [typed, setTyped] = useState(params.get('q') ?? '');
  const q = useDebounced(typed.trim(), 300);
  const page = Math.max(0, Number(params.get('page') ?? '1') - 1) || 0;

  // A new search starts at its first page; the address follows what was typed.
  useEffect(() => {
    if (q === (params.get('q') ?? '')) return;
    setParams(q === '' ? {} : { q }, { replace: true });
  }, [q, params, setParams]);

  const results = usePatientsPage(q, q === (params.get('q') ?? '') ? page : 0);
  const goTo = (next: number) =>
    setParams({ ...(q === '' ? {} : { q }), ...(next > 0 ? { page: String(next + 1) } : {}) });

  const rows = results.data?.rows ?? [];
  const headingId = `${id}-results`;
  return (
    <Page title={t('title')}>
      <Stack spacing={2}>
        <TextField
          label={t('search.label')}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          helperText={t('search.help')}
          type="search"
          autoComplete="off"
          slotProps={{ htmlInput: { 'aria-controls': headingId } }}
        />
        <Section
          title={q === '' ? t('search.results') : t('search.resultsFor', { q })}
          id={headingId}
        >
          {results.isError ? <Alert severity="error">{errorText(t, results.error)}</Alert> : null}
          {results.isPending ? (
            <PageLoading />
          ) : rows.length === 0 && page === 0 ? (
            <Typography role="status">
              {q === '' ? t('search.empty') : t('search.none', { q })}
            </Typography>
          ) : (
            <>
              <div aria-busy={results.isFetching}>
                {results.isFetching ? (
                  <LinearProgress aria-label={t('search.loading')} sx={{ mb: 1 }} />
                ) : null}
                <TableContainer>
                  <Table size="small" aria-labelledby={headingId}>
                    <TableHead>
                      <TableRow>
                        <TableCell>{t('search.name')}</TableCell>
                        <TableCell>{t('search.idNumber')}</TableCell>
                        <TableCell>{t('search.phone')}</TableCell>
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {rows.map((patient) => (
                        <TableRow key={patient.id} hover>
                          <TableCell component="th" scope="row">
                            <Link component={RouterLink} to={`/patients/${patient.id_number}`}>
                              {patient.first_name} {patient.last_name}
                            </Link>
                          </TableCell>
                          <TableCell>
                            <bdi>{patient.id_number}</bdi>
                          </TableCell>
                          <TableCell>
                            <bdi>{formatPhone(patient.phone)}</bdi>
                          </TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </TableContainer>
              </div>
              <Stack
                component="nav"
                aria-label={t('search.pages')}
                direction="row"
                spacing={2}
                sx={{ alignItems: 'center', justifyContent: 'flex-end', mt: 2 }}
              >
                <Button disabled={page === 0} onClick={() => goTo(page - 1)}>
                  {t('search.previous')}
                </Button>
                <Typography aria-live="polite">{t('search.page', { page: page + 1 })}</Typography>
                <Button disabled={!results.data?.more} onClick={() => goTo(page + 1)}>
                  {t('search.next')}
                </Button>
              </Stack>
            </>
          )}
        </Section>
      </Stack>
    </Page>
  );
}
