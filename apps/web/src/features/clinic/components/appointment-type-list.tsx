import type { AppointmentType } from '@marpe/shared';
import Box from '@mui/material/Box';
import { ClinicText } from '../../../lib/text-runs';

export function AppointmentTypeList({
  types,
  labelledBy,
}: {
  types: AppointmentType[];
  labelledBy: string;
}) {
  return (
    <Box
      component="ul"
      // Safari drops list semantics from a list without bullets unless the role is explicit.
      role="list"
      aria-labelledby={labelledBy}
      sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexWrap: 'wrap', gap: 1 }}
    >
      {types.map((type) => (
        <Box
          component="li"
          key={type.id}
          sx={{
            px: 1.75,
            py: 0.75,
            borderRadius: 4,
            bgcolor: 'secondary.main',
            color: 'text.primary',
            typography: 'body2',
          }}
        >
          <ClinicText>{type.name}</ClinicText>
        </Box>
      ))}
    </Box>
  );
}
