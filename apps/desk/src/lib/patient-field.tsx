import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import type { IntegrationPatient } from '@marpe/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from './api';
import { formatPhone } from './format';

/** The value after it has stopped changing for `ms` (a search per pause, not per key). */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** The clinic's patients matching what was typed (name, ID number or phone); from 2 characters. */
export const usePatientSearch = (q: string, limit = 10) =>
  useQuery({
    queryKey: ['patients', 'search', q, limit] as const,
    queryFn: ({ signal }) =>
      api<IntegrationPatient[]>(
        `/api/integration/patients?${new URLSearchParams({ q, limit: String(limit) })}`,
        { signal },
      ),
    enabled: q.trim().length >= 2,
    staleTime: 30_000,
    placeholderData: (previous) => previous,
  });

/** A patient as a search result reads: name, ID number, phone. */
export const describePatient = (p: IntegrationPatient) =>
  `${p.first_name} ${p.last_name} · ${p.id_number} · ${formatPhone(p.phone)}`;

export interface PatientFieldProps {
  value: IntegrationPatient | null;
  onChange: (patient: IntegrationPatient | null) => void;
  /** A refusal to show under the field (e.g. "choose a patient"). */
  error?: string;
  /** Said under the field when a search finds nobody; by default "No patient found". */
  noResultsText?: string;
  autoFocus?: boolean;
}

/**
 * Finds one of the clinic's patients as one types (name, ID number or phone, debounced): the
 * field every desk dialog that acts for a patient starts with.
 */
export function PatientField({
  value,
  onChange,
  error,
  noResultsText,
  autoFocus,
}: PatientFieldProps) {
  const { t } = useTranslation();
  // A patient chosen before the field opens (booking from their page) reads as when picked.
  const [query, setQuery] = useState(() => (value ? describePatient(value) : ''));
  const debounced = useDebounced(query, 300);
  const search = usePatientSearch(debounced);
  return (
    <Autocomplete
      options={search.data ?? []}
      value={value}
      onChange={(_event, patient) => onChange(patient)}
      inputValue={query}
      onInputChange={(_event, text) => setQuery(text)}
      filterOptions={(options) => options}
      getOptionLabel={describePatient}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={search.isFetching}
      loadingText={t('patientField.searching')}
      noOptionsText={
        debounced.trim().length < 2
          ? t('patientField.help')
          : (noResultsText ?? t('patientField.noResults'))
      }
      renderInput={(params) => (
        <TextField
          {...params}
          label={t('patientField.label')}
          autoFocus={autoFocus}
          error={Boolean(error)}
          helperText={error ?? t('patientField.help')}
        />
      )}
    />
  );
}
