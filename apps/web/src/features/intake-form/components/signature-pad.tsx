import LockIcon from '../../../lib/icons/lock';
import LockOpenIcon from '../../../lib/icons/lock-open';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import SignaturePad from 'signature_pad';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '../../../lib/text-field';
import {
  exportSignature,
  signatureHeightPx,
  signaturePadOptions,
  type SignatureImageType,
} from './signature-export';
import { PatientText, usePatientLanguage } from './patient-language';

interface SignaturePadFieldProps {
  /** The field's label element, naming the group. */
  labelId: string;
  /** The stored data URL ('' when empty): drawn back in on mount (a restored answer). */
  value: string;
  onChange: (value: string) => void;
  /** A read-only field stays locked. */
  readOnly?: boolean;
  invalid?: boolean;
  describedBy?: string;
  exportType?: SignatureImageType;
}

/** A cursive-looking font stack that every platform has something of. */
const typedFont = '"Segoe Script", "Brush Script MT", "Apple Chancery", cursive';

/** Renders a typed name as an image the size of the pad's canvas. */
function typedSignature(canvas: HTMLCanvasElement, name: string): string | null {
  const image = document.createElement('canvas');
  image.width = canvas.width;
  image.height = canvas.height;
  const ctx = image.getContext('2d');
  if (!ctx) return null;
  const ratio = canvas.width / Math.max(1, canvas.offsetWidth || canvas.width);
  let size = 56 * ratio;
  ctx.font = `${size}px ${typedFont}`;
  while (size > 12 && ctx.measureText(name).width > image.width * 0.9) {
    size -= 4;
    ctx.font = `${size}px ${typedFont}`;
  }
  ctx.fillStyle = signaturePadOptions.penColor;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.direction = /[\u0590-\u05FF]/.test(name) ? 'rtl' : 'ltr';
  ctx.fillText(name, image.width / 2, image.height / 2);
  return image.toDataURL('image/png');
}

/**
 * docs/product/intake-form.md#signature-pad on signature_pad with its defaults: empty until drawn
 * on, cleared, undone one stroke at a time, locked and unlocked, redrawn on resize. People who
 * cannot draw type their name instead; it is rendered into the pad as the signature image.
 */
export function SignaturePadField({
  labelId,
  value,
  onChange,
  readOnly = false,
  invalid = false,
  describedBy,
  exportType = 'image/png',
}: SignaturePadFieldProps) {
  const { t } = useTranslation();
  const { attributes } = usePatientLanguage();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  /** An image under the strokes (a restored answer or a typed name). */
  const baseImage = useRef<string | null>(null);
  const [locked, setLocked] = useState(readOnly);
  const [isEmpty, setIsEmpty] = useState(value === '');
  const [typing, setTyping] = useState(false);
  const [typedName, setTypedName] = useState('');
  const typedId = useId();
  const hintId = useId();
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  const initialValue = useRef(value);

  const publish = useCallback(() => {
    const pad = padRef.current;
    if (!pad) return;
    const output = exportSignature(pad, exportType);
    setIsEmpty(output.isEmpty);
    onChangeRef.current(output.isEmpty ? '' : output.data);
  }, [exportType]);

  // The pad lives as long as the canvas; a resize redraws strokes and image at the new size.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let pad: SignaturePad;
    try {
      pad = new SignaturePad(canvas, { ...signaturePadOptions });
    } catch {
      return; // No 2D canvas (an old or headless engine): the typed name still works.
    }
    padRef.current = pad;
    const fit = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const width = canvas.offsetWidth;
      if (width === 0 || canvas.width === Math.round(width * ratio)) return;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(signatureHeightPx * ratio);
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad.redraw();
    };
    fit();
    if (initialValue.current) {
      baseImage.current = initialValue.current;
      void pad.fromDataURL(initialValue.current).catch(() => undefined);
    }
    const onEnd = () => publish();
    pad.addEventListener('endStroke', onEnd);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(fit);
    observer?.observe(canvas);
    return () => {
      observer?.disconnect();
      pad.removeEventListener('endStroke', onEnd);
      pad.off();
      padRef.current = null;
    };
  }, [publish]);

  useEffect(() => {
    const pad = padRef.current;
    if (!pad) return;
    if (locked) pad.off();
    else pad.on();
  }, [locked]);

  const clear = () => {
    padRef.current?.clear();
    baseImage.current = null;
    publish();
  };

  const undo = async () => {
    const pad = padRef.current;
    if (!pad) return;
    const strokes = pad.toData();
    if (strokes.length > 0) strokes.pop();
    else baseImage.current = null;
    pad.clear();
    if (baseImage.current) await pad.fromDataURL(baseImage.current).catch(() => undefined);
    pad.fromData(strokes, { clear: false });
    publish();
  };

  const applyTypedName = async () => {
    const pad = padRef.current;
    const canvas = canvasRef.current;
    const name = typedName.trim();
    if (!pad || !canvas || !name) return;
    const image = typedSignature(canvas, name);
    if (!image) return;
    pad.clear();
    baseImage.current = image;
    await pad.fromDataURL(image).catch(() => undefined);
    publish();
  };

  return (
    <Box
      role="group"
      aria-labelledby={labelId}
      aria-describedby={describedBy}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}
    >
      <Box
        sx={{
          position: 'relative',
          border: 1,
          borderColor: invalid ? 'error.main' : 'grey.500',
          borderRadius: 1,
          bgcolor: locked ? 'action.hover' : 'background.paper',
          overflow: 'hidden',
        }}
      >
        {isEmpty && !locked && (
          // Where to sign, on the empty pad: a line with "sign here" under it, behind the strokes
          // (the canvas is transparent) and never in the pointer's way. The canvas is described
          // by it, so a screen reader hears it once, with the pad.
          <Box
            id={hintId}
            aria-hidden="true"
            sx={{
              position: 'absolute',
              insetInline: '10%',
              bottom: 12,
              pt: 0.5,
              borderTop: 1,
              borderColor: 'text.secondary',
              borderTopStyle: 'dashed',
              color: 'text.secondary',
              typography: 'body2',
              textAlign: 'center',
              pointerEvents: 'none',
            }}
          >
            <PatientText>{t('intakeForm.signature.hint')}</PatientText>
          </Box>
        )}
        <canvas
          ref={canvasRef}
          role="img"
          lang={attributes.lang}
          aria-label={
            isEmpty ? t('intakeForm.signature.emptyPad') : t('intakeForm.signature.signedPad')
          }
          aria-describedby={isEmpty && !locked ? hintId : undefined}
          style={{
            position: 'relative',
            display: 'block',
            width: '100%',
            height: signatureHeightPx,
            touchAction: 'none',
          }}
        />
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
        <Button
          size="small"
          variant="outlined"
          onClick={() => void undo()}
          disabled={locked || isEmpty}
        >
          <PatientText>{t('intakeForm.signature.undo')}</PatientText>
        </Button>
        <Button size="small" variant="outlined" onClick={clear} disabled={locked || isEmpty}>
          <PatientText>{t('intakeForm.signature.clear')}</PatientText>
        </Button>
        {!readOnly && (
          // The name says what a press does (lock against changes, or unlock to change).
          <Button
            size="small"
            variant="outlined"
            startIcon={locked ? <LockOpenIcon /> : <LockIcon />}
            onClick={() => setLocked((value) => !value)}
          >
            <PatientText>
              {locked ? t('intakeForm.signature.unlock') : t('intakeForm.signature.lock')}
            </PatientText>
          </Button>
        )}
        <Button
          size="small"
          variant="text"
          aria-expanded={typing}
          aria-controls={typedId}
          disabled={locked}
          onClick={() => setTyping((value) => !value)}
        >
          <PatientText>{t('intakeForm.signature.typeInstead')}</PatientText>
        </Button>
      </Box>
      {typing && (
        <Box
          id={typedId}
          sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}
        >
          <TextField
            size="small"
            label={<PatientText>{t('intakeForm.signature.typedName')}</PatientText>}
            value={typedName}
            disabled={locked}
            onChange={(event) => setTypedName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                void applyTypedName();
              }
            }}
          />
          <Button
            variant="outlined"
            disabled={locked || !typedName.trim()}
            onClick={() => void applyTypedName()}
          >
            <PatientText>{t('intakeForm.signature.useTypedName')}</PatientText>
          </Button>
        </Box>
      )}
    </Box>
  );
}
