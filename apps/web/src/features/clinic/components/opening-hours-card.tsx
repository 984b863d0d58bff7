import type { OpeningHours } from '@marpe/shared';
import { weekDays } from '@marpe/shared/rules';
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { SideCard } from './side-card';
import { SaidAs } from '../../../lib/said-as';
import { ClinicText, Ltr } from '../../../lib/text-runs';

export function OpeningHoursCard({ openingHours }: { openingHours: OpeningHours }) {
  const { t } = useTranslation();
  // The clinic's own title is its words (Hebrew on every page), but a title that is just the
  // default heading reads as the page's own: translated, not "שעות פעילות" on the English page.
  const ownTitle =
    openingHours.title && openingHours.title.trim() !== t('clinic.openingHours', { lng: 'he' })
      ? openingHours.title
      : null;
  return (
    <SideCard title={ownTitle ? <ClinicText>{ownTitle}</ClinicText> : t('clinic.openingHours')}>
      {(headingId) => (
        <Box
          component="table"
          aria-labelledby={headingId}
          sx={{
            width: '100%',
            borderCollapse: 'collapse',
            typography: 'body1',
            '& th, & td': { py: 0.75, textAlign: 'start', verticalAlign: 'top' },
            '& th': { fontWeight: 400, paddingInlineEnd: 2 },
            '& td': { textAlign: 'end' },
            '& tr + tr > *': { borderTop: 1, borderColor: 'divider' },
          }}
        >
          <tbody>
            {weekDays.map((day) => {
              const hours = openingHours.days[day];
              return (
                <tr key={day}>
                  <th scope="row">{t(`clinic.days.${day}`)}</th>
                  <Box component="td" sx={hours ? undefined : { color: 'text.secondary' }}>
                    {hours ? (
                      // Said "from 08:00 to 19:00", not "08:00 minus 19:00".
                      <SaidAs said={t('clinic.hoursSaid', { start: hours.start, end: hours.end })}>
                        <Ltr>{`${hours.start} - ${hours.end}`}</Ltr>
                      </SaidAs>
                    ) : (
                      t('clinic.closed')
                    )}
                  </Box>
                </tr>
              );
            })}
          </tbody>
        </Box>
      )}
    </SideCard>
  );
}
