import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { FormSchema, InputData } from '@marpe/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { localeOf } from '../../../lib/format';
import { answerSteps, type AnswerBlock, type AnswerValue, type HtmlParagraphs } from '../answers';

type Answered = Extract<AnswerBlock, { kind: 'answer' | 'signature' }>;

/** Consecutive answers as one list (a `dl` holds only its terms), display blocks alone. */
function runsOf(blocks: AnswerBlock[]): (Answered[] | Exclude<AnswerBlock, Answered>)[] {
  const runs: (Answered[] | Exclude<AnswerBlock, Answered>)[] = [];
  for (const block of blocks) {
    if (block.kind === 'answer' || block.kind === 'signature') {
      const last = runs.at(-1);
      if (Array.isArray(last)) last.push(block);
      else runs.push([block]);
    } else {
      runs.push(block);
    }
  }
  return runs;
}

/**
 * The submitted form as the patient saw it: each step's title (h3), its titles (h4) and texts,
 * and each question with the answer in readable form; signatures as images. The form's own
 * direction (a left-to-right form in an RTL desk) is kept.
 */
export function AnswersView({
  schema,
  values,
  submittedAt,
  timeZone,
  htmlParagraphs,
}: {
  schema: FormSchema;
  values: InputData;
  submittedAt: string;
  timeZone: string;
  /** Tests pass their own; the browser's DOMParser otherwise. */
  htmlParagraphs?: HtmlParagraphs;
}) {
  const { t, i18n } = useTranslation('forms');
  const steps = useMemo(
    () => answerSteps(schema, values, submittedAt, timeZone, htmlParagraphs),
    [schema, values, submittedAt, timeZone, htmlParagraphs],
  );
  const dateFormat = new Intl.DateTimeFormat(localeOf(i18n.language), {
    dateStyle: 'long',
    timeZone: 'UTC',
  });
  const say = (value: AnswerValue) => {
    switch (value.kind) {
      case 'yes':
        return t('common:yes');
      case 'no':
        return t('common:no');
      case 'empty':
        return (
          <Typography component="span" color="text.secondary">
            {t('answers.empty')}
          </Typography>
        );
      case 'date':
        return dateFormat.format(
          new Date(Date.UTC(value.date.year, value.date.month - 1, value.date.day)),
        );
      case 'text':
        return <bdi style={{ whiteSpace: 'pre-wrap' }}>{value.text}</bdi>;
    }
  };

  if (steps.length === 0) return <Typography>{t('answers.none')}</Typography>;
  return (
    <Stack spacing={3} dir={schema[0]?.is_ltr ? 'ltr' : undefined}>
      {steps.map((step, s) => (
        <Box key={s}>
          {step.title ? (
            <Typography variant="h3" sx={{ mb: 1.5 }}>
              {step.title}
            </Typography>
          ) : null}
          <Stack spacing={1.5}>
            {runsOf(step.blocks).map((run, r) =>
              Array.isArray(run) ? (
                <Stack key={r} component="dl" spacing={1.5} sx={{ m: 0 }}>
                  {run.map((block, b) => (
                    <div key={b}>
                      <Typography component="dt" variant="body2" color="text.secondary">
                        {block.label}
                      </Typography>
                      <Typography component="dd" sx={{ m: 0, fontWeight: 500 }}>
                        {block.kind === 'answer' ? (
                          say(block.value)
                        ) : block.dataUrl ? (
                          <Box
                            component="img"
                            src={block.dataUrl}
                            alt={t('answers.signatureOf', { label: block.label })}
                            sx={{
                              maxWidth: 320,
                              maxHeight: 140,
                              border: 1,
                              borderColor: 'divider',
                              borderRadius: 1,
                              bgcolor: '#fff',
                              display: 'block',
                            }}
                          />
                        ) : (
                          <Typography component="span" color="text.secondary">
                            {t('answers.noSignature')}
                          </Typography>
                        )}
                      </Typography>
                    </div>
                  ))}
                </Stack>
              ) : run.kind === 'heading' ? (
                <Typography
                  key={r}
                  variant="h4"
                  component={step.title ? 'h4' : 'h3'}
                  sx={{ fontSize: '1.05rem' }}
                >
                  {run.text}
                </Typography>
              ) : (
                <Box key={r} sx={{ color: 'text.secondary' }}>
                  {run.paragraphs.map((paragraph, p) => (
                    <Typography key={p} variant="body2" sx={{ mb: 0.5 }}>
                      {paragraph}
                    </Typography>
                  ))}
                </Box>
              ),
            )}
          </Stack>
        </Box>
      ))}
    </Stack>
  );
}
