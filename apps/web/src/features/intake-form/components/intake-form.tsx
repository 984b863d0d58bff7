import type { ValidationKind } from '@marpe/shared';
import { isVisible, pruneHidden, validateStep } from '@marpe/shared/rules';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { ClinicLogo } from '../../../lib/clinic-logo';
import { usePageTitle } from '../../../lib/page-title';
import { VisuallyHidden } from '../../../lib/text-runs';
import { submitForm } from '../api/submit-form';
import { clinicToday, useFormStore, useFormStoreApi } from '../stores/form-store';
import { DraftStatusLine } from './draft-status-line';
import { DirectionScope } from './direction-scope';
import { FormFieldView } from './form-field-view';
import { PatientText, patientLanguageOf } from './patient-language';

type StepErrors = Record<string, ValidationKind>;

/**
 * The loaded form: logo, the current step, its buttons (docs/product/intake-form.md). `clinicId`:
 * the clinic that sent the link, named by the page that follows the form.
 */
export function IntakeForm({ clinicId }: { clinicId?: number }) {
  const { t, i18n } = useTranslation();
  const clinicQuery = clinicId === undefined ? '' : `?clinic=${clinicId}`;
  const navigate = useNavigate();
  const store = useFormStoreApi();
  const { token, formData, inputData, currentStepIndex, setValue, goToStep, reset } = useFormStore(
    (state) => state,
  );
  const [errors, setErrors] = useState<StepErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [submitFailed, setSubmitFailed] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const shownStep = useRef(currentStepIndex);
  usePageTitle(formData?.schema[currentStepIndex]?.title);

  // A new step: its heading takes the focus, so screen readers start there (not on first load).
  useEffect(() => {
    if (shownStep.current === currentStepIndex) return;
    shownStep.current = currentStepIndex;
    window.scrollTo({ top: 0 });
    headingRef.current?.focus();
  }, [currentStepIndex]);

  if (!formData) return null;
  const schema = formData.schema;
  const step = schema[currentStepIndex];
  if (!step) return null;
  const isLast = currentStepIndex === schema.length - 1;
  const direction = schema[0]?.is_ltr ? 'ltr' : 'rtl';
  // The clinic's button labels are in the form's language; a patient who reads the page in
  // another language gets ours, in theirs.
  const patient = patientLanguageOf(i18n.language, direction);
  const nextLabel = patient.keepsClinicLabels
    ? step.next_button
    : t(isLast ? 'intakeForm.submit' : 'intakeForm.next');
  const previousLabel = patient.keepsClinicLabels ? step.prev_button : t('intakeForm.previous');
  const fieldId = (index: number) => `intake-${currentStepIndex}-${index}`;
  const today = clinicToday();
  const visible = step.fields
    .map((field, index) => ({ field, id: fieldId(index) }))
    .filter(({ field }) => isVisible(field, inputData, today));

  const change = (name: string, value: string | boolean) => {
    setValue(name, value);
    setSubmitFailed(false);
    // Once marked, a field's message follows its value; fields not yet marked stay quiet.
    if (Object.keys(errors).length > 0) {
      const now = validateStep(step, store.getState().inputData, clinicToday());
      setErrors(Object.fromEntries(Object.entries(now).filter(([key]) => key in errors)));
    }
  };

  const submit = async () => {
    setSubmitting(true);
    setSubmitFailed(false);
    try {
      await submitForm(token, pruneHidden(schema, inputData, clinicToday()));
      reset();
      // The status pages name the link's clinic, with its phone (their `?clinic=`).
      void navigate(`/completed${clinicQuery}`, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        reset();
        void navigate(`/expired${clinicQuery}`, { replace: true });
        return;
      }
      setSubmitting(false);
      setSubmitFailed(true);
    }
  };

  const next = (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const found = validateStep(step, inputData, clinicToday());
    setErrors(found);
    if (Object.keys(found).length > 0) {
      window.scrollTo({ top: 0 });
      // After the summary has rendered: it is announced, and the links in it lead to each field.
      requestAnimationFrame(() => summaryRef.current?.focus({ preventScroll: true }));
      return;
    }
    if (isLast) void submit();
    else goToStep(currentStepIndex + 1);
  };

  const previous = () => {
    setErrors({});
    setSubmitFailed(false);
    goToStep(currentStepIndex - 1);
  };

  const invalid = visible.filter(({ field }) => errors[field.name] !== undefined);
  const headingId = `intake-heading-${currentStepIndex}`;

  return (
    <DirectionScope direction={direction}>
      <Box sx={{ maxWidth: 640, mx: 'auto', display: 'flex', flexDirection: 'column', gap: 3 }}>
        {formData.headerImage && (
          // Its text alternative is ours, in the patient's language.
          <div lang={patient.attributes.lang}>
            <ClinicLogo src={formData.headerImage} alt={t('intakeForm.logoAlt')} />
          </div>
        )}
        <Box
          component="form"
          noValidate
          aria-labelledby={headingId}
          onSubmit={next}
          sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}
        >
          <Box>
            {schema.length > 1 && (
              <Typography color="textSecondary" variant="body2">
                <PatientText>
                  {t('intakeForm.stepOf', { current: currentStepIndex + 1, total: schema.length })}
                </PatientText>
              </Typography>
            )}
            <Typography
              ref={headingRef}
              id={headingId}
              component="h1"
              variant="h4"
              tabIndex={-1}
              sx={{ outline: 'none' }}
            >
              {step.title}
            </Typography>
          </Box>
          {invalid.length > 0 && (
            <Alert severity="error" role="alert" ref={summaryRef} tabIndex={-1}>
              <Typography sx={{ fontWeight: 500 }}>
                <PatientText>{t('intakeForm.errorSummary')}</PatientText>
              </Typography>
              <Box component="ul" sx={{ m: 0, paddingInlineStart: 3 }}>
                {invalid.map(({ field, id }) => (
                  <li key={id}>
                    <Link
                      href={`#${id}`}
                      color="inherit"
                      onClick={(event) => {
                        event.preventDefault();
                        const target = document.getElementById(id);
                        target?.focus();
                        target?.scrollIntoView({ block: 'center' });
                      }}
                    >
                      {field.title || field.name}
                    </Link>
                  </li>
                ))}
              </Box>
            </Alert>
          )}
          {visible.map(({ field, id }) => (
            <FormFieldView
              key={id}
              field={field}
              id={id}
              value={inputData[field.name]}
              error={errors[field.name]}
              onChange={(value) => change(field.name, value)}
            />
          ))}
          {submitFailed && (
            <Alert severity="error">
              <PatientText>{t('intakeForm.submitError')}</PatientText>
            </Alert>
          )}
          <DraftStatusLine />
          <Box
            sx={{ display: 'flex', gap: 1.5, flexDirection: { xs: 'column-reverse', sm: 'row' } }}
          >
            {currentStepIndex > 0 && step.prev_button && (
              <Button variant="outlined" size="large" onClick={previous} disabled={submitting}>
                <PatientText>{previousLabel}</PatientText>
              </Button>
            )}
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={submitting}
              aria-busy={submitting || undefined}
              endIcon={
                submitting ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined
              }
              sx={{ minWidth: { sm: 160 }, marginInlineStart: { sm: 'auto' } }}
            >
              <PatientText>{nextLabel}</PatientText>
            </Button>
          </Box>
          <VisuallyHidden>
            <span role="status">
              <PatientText>{submitting ? t('intakeForm.submitting') : ''}</PatientText>
            </span>
          </VisuallyHidden>
        </Box>
      </Box>
    </DirectionScope>
  );
}
