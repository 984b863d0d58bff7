import Alert from '@mui/material/Alert';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import type { IntegrationAppointmentType } from '@marpe/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { Section } from '../../../lib/section';

/** The appointment types a caregiver gives, ticked from the clinic's (a link to add the first). */
export function CaregiverTypesSection({
  types,
  value,
  onChange,
  error,
}: {
  types: IntegrationAppointmentType[];
  value: number[];
  onChange: (update: (ids: number[]) => number[]) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation('setup-team');
  const id = useId();
  return (
    <Section title={t('caregiver.types')} intro={t('caregiver.typesIntro')}>
      {types.length === 0 ? (
        <Alert severity="info">
          {t('caregiver.noTypes')}{' '}
          <Link component={RouterLink} to="/setup/types">
            {t('caregiver.noTypesLink')}
          </Link>
        </Alert>
      ) : (
        <FormControl component="fieldset" error={error !== undefined}>
          <FormLabel component="legend" id={`${id}-types`}>
            {t('caregiver.typesLegend')}
          </FormLabel>
          <FormGroup>
            {types.map((type) => (
              <FormControlLabel
                key={type.id}
                control={
                  <Checkbox
                    checked={value.includes(type.id)}
                    onChange={(event) =>
                      onChange((ids) =>
                        event.target.checked
                          ? [...ids, type.id]
                          : ids.filter((typeId) => typeId !== type.id),
                      )
                    }
                  />
                }
                label={t('types.nameWithMinutes', {
                  name: type.name,
                  minutes: t('types.minutes', { count: type.duration_minutes }),
                })}
              />
            ))}
          </FormGroup>
          {error ? <FormHelperText>{error}</FormHelperText> : null}
        </FormControl>
      )}
    </Section>
  );
}
