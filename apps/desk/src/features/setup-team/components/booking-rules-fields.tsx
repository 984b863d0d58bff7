import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { IntegrationClinic } from '@marpe/shared';
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '../../../lib/field-errors';
import type { RuleForm } from '../caregiver-schedule';

export const ruleNames = [
  'slot_step_minutes',
  'min_notice_minutes',
  'booking_horizon_days',
] as const;
export type RuleName = (typeof ruleNames)[number];
export type RulesForm = Record<RuleName, RuleForm>;

/**
 * The caregiver's own booking rules, each "as the clinic" (the clinic's value shown) unless the
 * owner unticks it and types the caregiver's own.
 */
export function BookingRulesFields({
  value,
  onChange,
  defaults,
  errors,
}: {
  value: RulesForm;
  onChange: (next: RulesForm) => void;
  defaults: IntegrationClinic['default_marpe_rules'];
  errors: FieldErrors;
}) {
  const { t } = useTranslation('setup-team');
  return (
    <Stack spacing={3}>
      {ruleNames.map((rule) => {
        const inherited = value[rule] === null;
        const error = errors[`marpe_rules.${rule}`];
        return (
          <Stack
            key={rule}
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            useFlexGap
            sx={{ alignItems: { sm: 'flex-start' } }}
          >
            <TextField
              type="number"
              label={t(`rules.${rule}.label`)}
              value={inherited ? String(defaults[rule]) : value[rule]}
              onChange={(event) => onChange({ ...value, [rule]: event.target.value })}
              disabled={inherited}
              error={error !== undefined}
              helperText={error ?? t(`rules.${rule}.help`)}
              fullWidth={false}
              sx={{ width: { xs: '100%', sm: 280 } }}
              slotProps={{
                htmlInput: { min: 0, dir: 'ltr' },
                // What the rule means stays readable while the clinic's value is shown.
                formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } },
              }}
            />
            <FormControlLabel
              sx={{ mt: { sm: 1 } }}
              control={
                <Checkbox
                  checked={inherited}
                  onChange={(event) =>
                    onChange({
                      ...value,
                      [rule]: event.target.checked ? null : String(defaults[rule]),
                    })
                  }
                />
              }
              label={t('rules.inherit', {
                value: t(`rules.${rule}.value`, { count: defaults[rule] }),
              })}
            />
          </Stack>
        );
      })}
    </Stack>
  );
}
