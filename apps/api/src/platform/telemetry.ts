import { FastifyOtelInstrumentation } from '@fastify/otel';
import {
  trace,
  type Span,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  osDetector,
  processDetector,
  serviceInstanceIdDetector,
} from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import pg from 'pg';
import type { TracingConfig } from './config.js';

// OpenTelemetry traces (docs/operations.md, "Traces"; ADR 030): Fastify's own instrumentation and
// pg's, exported as the standard OTEL_* variables say (OTLP by default). Only traces: metrics are
// Prometheus's (platform/metrics.ts), logs stay on standard output. The tracer provider and its
// exporters are set up here rather than by the SDK's NodeSDK, which brings every exporter of every
// signal (about 50 MB installed) for the two this uses (docs/decisions/041-lighter-installs.md).

export interface Tracing {
  /** Registered first in buildApp: a span per request, named by its route's pattern. */
  readonly plugin: FastifyPluginCallback;
  /** Flushes what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  /** The exporters OTEL_* names (config.tracing). */
  export?: TracingConfig;
  /** Instead of those exporters (tests: an in-memory exporter). */
  spanProcessors?: SpanProcessor[];
}

/** The route's pattern, never the path (which may hold a link token or a query string). */
const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';

/**
 * What a request span may say: its method and route pattern, the status (added at the end). The
 * path Fastify's instrumentation records is replaced by the pattern, so no token, id or query
 * string leaves; no request body, header or parameter value is ever recorded.
 */
function nameRequestSpan(span: Span, request: FastifyRequest): void {
  const route = routeOf(request);
  span.updateName(`${request.method} ${route}`);
  span.setAttribute('url.path', route);
}

/**
 * Reads no trace context from a request and writes none: every caller of Marpe is on the internet
 * (patients, clinics' systems, payment and messaging providers), and a `traceparent` one of them
 * sends would put our spans into its trace, pick the sampling decision (a flood of sampled traces)
 * and carry its `tracestate`/`baggage` along. No route trusts it; every request starts a trace
 * of its own. Nothing outbound is instrumented, so there is nothing to inject either.
 */
const noTraceContext: TextMapPropagator = {
  inject() {},
  extract: (context) => context,
  fields: () => [],
};

/**
 * As the SDK sets them up from OTEL_*: an OTLP exporter in the protocol named (each reads its
 * endpoint, headers and timeout from OTEL_EXPORTER_OTLP_* itself) behind a batch processor (which
 * reads OTEL_BSP_*), the console's behind a simple one.
 */
function exportingProcessors(config: TracingConfig): SpanProcessor[] {
  return config.exporters.map((name) =>
    name === 'console'
      ? new SimpleSpanProcessor(new ConsoleSpanExporter())
      : new BatchSpanProcessor(
          config.protocol === 'http/json'
            ? new OtlpJsonTraceExporter()
            : new OtlpProtobufTraceExporter(),
        ),
  );
}

/**
 * Starts tracing (global tracer provider, no propagation: see noTraceContext) and patches `pg`:
 * the server loads `pg` before this can run (bundled ESM imports come first), so its classes are
 * patched in place rather than through a module-load hook. The resource is what the SDK detects by
 * default (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, host, OS, process); the sampler and span
 * limits come from OTEL_TRACES_SAMPLER and its kin, read by the tracer provider.
 */
export function startTracing(options: TracingOptions = {}): Tracing {
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(
      detectResources({
        detectors: [
          hostDetector,
          osDetector,
          serviceInstanceIdDetector,
          processDetector,
          envDetector,
        ],
      }),
    ),
    spanProcessors:
      options.spanProcessors ?? (options.export ? exportingProcessors(options.export) : []),
  });
  // Whatever OTEL_PROPAGATORS says.
  provider.register({ propagator: noTraceContext });

  const fastify = new FastifyOtelInstrumentation({
    registerOnInitialization: false,
    // An exception's message may quote what the request sent (a value that failed to parse).
    recordExceptions: false,
    requestHook: nameRequestSpan,
  });
  // The statement text only (placeholders, never the values), and only inside a request or job.
  const pgInstrumentation = new PgInstrumentation({
    enhancedDatabaseReporting: false,
    requireParentSpan: true,
  });
  patchPg(pgInstrumentation);
  const scrubbed = withoutErrorText(trace.getTracerProvider());
  fastify.setTracerProvider(scrubbed);
  pgInstrumentation.setTracerProvider(scrubbed);

  return {
    plugin: fastify.plugin(),
    async shutdown() {
      pgInstrumentation.disable();
      await provider.shutdown();
    },
  };
}

/**
 * A failed span keeps its ERROR status but not the error's text: a query error quotes the
 * statement and its parameters (patient data), a validation error what the request sent. The
 * sanitised log line of the same request says what failed (docs/operations.md, "Logs").
 */
function scrubbed(span: Span): Span {
  const setStatus = span.setStatus.bind(span);
  span.setStatus = (status) => setStatus({ code: status.code });
  span.recordException = () => {};
  return span;
}

function withoutErrorText(provider: TracerProvider): TracerProvider {
  return {
    getTracer(name, version, options) {
      const tracer = provider.getTracer(name, version, options);
      const wrapped: Pick<Tracer, 'startSpan'> = {
        startSpan: (spanName, spanOptions, context) =>
          scrubbed(tracer.startSpan(spanName, spanOptions, context)),
      };
      // Neither instrumentation calls startActiveSpan; left as the tracer's own.
      return Object.assign(Object.create(tracer) as Tracer, wrapped);
    },
  };
}

interface ModuleDefinition {
  name: string;
  patch?: (exports: unknown, version?: string) => unknown;
}

function patchPg(instrumentation: PgInstrumentation): void {
  const definitions = (
    instrumentation as unknown as { getModuleDefinitions(): ModuleDefinition[] }
  ).getModuleDefinitions();
  for (const definition of definitions) {
    // pg.Pool extends pg-pool's class, whose prototype holds `connect`.
    if (definition.name === 'pg') definition.patch?.(pg);
    if (definition.name === 'pg-pool') definition.patch?.(Object.getPrototypeOf(pg.Pool));
  }
}
