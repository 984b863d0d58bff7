import type { AppointmentType } from '@marpe/shared';
import CloseIcon from '../../../lib/icons/close';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../lib/text-field';

export interface TypeStepProps {
  types: AppointmentType[];
  selected: AppointmentType | null;
  onSelect: (type: AppointmentType | null) => void;
}

/**
 * Step 2 (docs/product/booking.md#the-page): a native select, so every screen reader and keyboard
 * knows it.
 */
export function TypeStep({ types, selected, onSelect }: TypeStepProps) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <TextField
        select
        fullWidth
        label={t('booking.typeLabel')}
        value={selected ? String(selected.id) : ''}
        onChange={(event) =>
          onSelect(types.find((type) => String(type.id) === event.target.value) ?? null)
        }
        slotProps={{ inputLabel: { shrink: true } }}
      >
        <option value="" disabled>
          {t('booking.typePlaceholder')}
        </option>
        {types.map((type) => (
          <option
            key={type.id}
            value={String(type.id)}
            disabled={selected !== null && selected.id !== type.id}
          >
            {`${type.name} (${t('booking.minutes', { count: type.duration_minutes })})`}
          </option>
        ))}
      </TextField>
      {selected && (
        <IconButton aria-label={t('booking.clearType')} onClick={() => onSelect(null)}>
          <CloseIcon />
        </IconButton>
      )}
    </Box>
  );
}
