import { eq } from 'drizzle-orm';
import {
  errorBodySchema,
  imageContentTypes,
  MAX_IMAGE_BYTES,
  uploadedImageSchema,
  type ImageContentType,
  type UploadedImage,
} from '@marpe/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit } from '../../platform/audit.js';
import type { Database } from '../../platform/db/client.js';
import { clinicImages, isStoredId } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { clinicActorOf } from '../../platform/http/integration-routes.js';

const extensions: Record<ImageContentType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

const invalidImage = (message: string) => new AppError('invalid_image', 400, message);

/** The type the bytes themselves say (their signature), whatever the request's header claimed. */
export function sniffImageType(bytes: Buffer): ImageContentType | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'image/png';
  }
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    return 'image/jpeg';
  }
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  return null;
}

export function createClinicImages(deps: { db: Database; clock: () => number }) {
  const { db, clock } = deps;
  return {
    async upload(
      clinicActor: { clinicId: number; actor: string },
      declared: string | undefined,
      bytes: Buffer,
    ): Promise<UploadedImage> {
      const type = sniffImageType(bytes);
      if (!type) throw invalidImage('Upload a PNG, JPEG or WebP image');
      if (declared && declared.split(';')[0]?.trim().toLowerCase() !== type) {
        throw invalidImage(`The image is ${type}, not ${declared}`);
      }
      const at = new Date(clock());
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(clinicImages)
          .values({ clinicId: clinicActor.clinicId, contentType: type, bytes, createdAt: at })
          .returning({ id: clinicImages.id });
        if (!row) throw new Error('image not saved');
        const url = `/api/images/${row.id}.${extensions[type]}`;
        await audit(tx, {
          clinicId: clinicActor.clinicId,
          actor: clinicActor.actor,
          action: 'image.upload',
          targetType: 'image',
          targetId: row.id,
          details: { content_type: type, bytes: bytes.length },
          at,
        });
        return { id: row.id, url, content_type: type, bytes: bytes.length };
      });
    },

    async find(id: number, extension: string) {
      if (!isStoredId(id)) return null;
      const [row] = await db
        .select({ contentType: clinicImages.contentType, bytes: clinicImages.bytes })
        .from(clinicImages)
        .where(eq(clinicImages.id, id));
      if (!row || extensions[row.contentType as ImageContentType] !== extension) return null;
      return row;
    },
  };
}

export type ClinicImages = ReturnType<typeof createClinicImages>;

/**
 * `POST /api/integration/images`: an image the clinic shows patients (its logo, a caregiver's
 * photo), the raw bytes as the body with their Content-Type. Kept in the database, so every
 * process serving the clinic has it.
 */
export const clinicImageRoutes: FastifyPluginAsyncZod<{ images: ClinicImages }> = async (
  app,
  { images },
) => {
  // Only this scope reads image bodies; the rest of the API stays JSON.
  app.addContentTypeParser(
    [...imageContentTypes],
    { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES },
    (_request, body, done) => done(null, body),
  );
  app.post(
    '/images',
    {
      bodyLimit: MAX_IMAGE_BYTES,
      schema: {
        tags: ['integration'],
        summary: `Uploads an image (201): the body is the file itself, PNG, JPEG or WebP (its Content-Type must say which), at most ${MAX_IMAGE_BYTES / 1024} KiB. The answer's url is served publicly from then on: set it as the clinic's logo_url or image_url or a caregiver's image. 400 invalid_image`,
        response: {
          201: uploadedImageSchema,
          400: errorBodySchema,
          401: errorBodySchema,
          403: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body)) {
        throw invalidImage(
          'Send the image file as the body, with Content-Type image/png, image/jpeg or image/webp',
        );
      }
      const created = await images.upload(
        clinicActorOf(request),
        request.headers['content-type'],
        request.body,
      );
      return reply.status(201).send(created);
    },
  );
};

const imageParamsSchema = z.object({
  file: z.string().regex(/^[1-9]\d{0,9}\.(png|jpg|webp)$/, 'Expected <id>.<png|jpg|webp>'),
});

/** `GET /api/images/:file`: an uploaded image, public and cached for a year (it never changes). */
export const imageFileRoutes: FastifyPluginAsyncZod<{ images: ClinicImages }> = async (
  app,
  { images },
) => {
  app.get(
    '/images/:file',
    {
      schema: {
        tags: ['clinic'],
        summary: 'An image a clinic uploaded (its logo, a caregiver photo)',
        params: imageParamsSchema,
      },
    },
    async (request, reply) => {
      const [id = '', extension = ''] = request.params.file.split('.');
      const image = await images.find(Number(id), extension);
      if (!image) throw new AppError('not_found', 404, 'No such image');
      return reply
        .header('content-type', image.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(image.bytes);
    },
  );
};
