// How the web app's Node process is launched: `npm start` (scripts/start.mjs) and the
// benchmarks (bench/lib/app.mjs) run `next start` with these settings, so a benchmark measures
// the app as it is run. Both keep the RSS small (bench/memory.mjs: < 300 MB at 100,000
// payments); what each buys was measured with /proc/<pid>/smaps and process.memoryUsage().
//
// --max-old-space-size (NODE_OPTIONS, 128 MB): V8 sizes its old generation from the machine's
// memory and, between major collections, lets garbage pile up to several times the live heap.
// After the memory benchmark's traffic the live heap is ~55 MB after a full collection, yet the
// heap had grown to 210–290 MB. The cap makes V8 collect sooner (heap ~95–115 MB). It is also a
// ceiling on the live heap: an app that needs more dies with "heap out of memory", so it stays
// at about twice the ~55–86 MB that the soak and memory benchmarks keep live. APP_HEAP_MB overrides
// it (0 = V8's own sizing); an operator's NODE_OPTIONS come after it, so their
// --max-old-space-size wins.
//
// --liftoff-only (command line; V8 refuses it in NODE_OPTIONS): PGlite is PostgreSQL compiled
// to WebAssembly. V8 compiles it with its baseline compiler (Liftoff) and recompiles hot
// functions with TurboFan; that second copy of PostgreSQL's code was 45–70 MB of RSS. The cost
// (PGlite alone, 100,000 payments): primary-key lookups no slower (0.31 ms; 0.031 ms per row in
// batches of 32), a list page ~8 % slower (20.5 → 22 ms), a CPU-bound sequential-scan aggregate
// ~30 % slower (670 → 860 ms). APP_LIFTOFF_ONLY=0 turns it off (RSS then ~+50 MB).
//
// Live update streams (docs/security.md, MAX_STREAMS, default 2,000): each open stream keeps
// ~73 KB of live heap, nearly all of it Next.js's per-request machinery (request and response
// objects, the web-stream pipe to the socket, async-hook records; measured with V8's sampling
// heap profiler at 300 streams: +24 MB, and by `npm run bench -- --only streams`: 215 MB after a
// full collection with 2,000 open against 69 MB idle). At 128 MB the process died with "heap out
// of memory" between 600 and 1,000 streams, so the cap grows with MAX_STREAMS: 128 MB plus 96 KB
// per stream, 316 MB at the default. 64 KB per stream (253 MB) left 37 MB with every stream open,
// less than mixed traffic and 2,000 streams closing at once add (docs/performance.md, "Live
// streams opened and closed"). The cap is a ceiling: an app with few streams open never uses it.
export const BASE_HEAP_MB = 128;
export const STREAM_HEAP_KB = 96;
const DEFAULT_MAX_STREAMS = 2000; // lib/live/stream-slots.ts

/** The heap cap for the process's MAX_STREAMS (read as lib/live/stream-slots.ts reads it). */
export function heapMbFor(env = process.env) {
  const raw = env.MAX_STREAMS?.trim();
  const n = raw && /^\d{1,7}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 1_000_000 ? Number(raw) : DEFAULT_MAX_STREAMS;
  return BASE_HEAP_MB + Math.ceil((n * STREAM_HEAP_KB) / 1024);
}

export const DEFAULT_HEAP_MB = heapMbFor({});

/** NODE_OPTIONS for the app process: our heap cap, then the operator's own options. */
export function appNodeOptions(env = process.env) {
  const raw = env.APP_HEAP_MB?.trim();
  const mb = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : heapMbFor(env);
  const ours = mb > 0 ? [`--max-old-space-size=${mb}`] : [];
  return [...ours, env.NODE_OPTIONS ?? ''].join(' ').trim();
}

/** Node/V8 command-line flags for the app process (before the script). */
export function appNodeArgs(env = process.env) {
  return env.APP_LIFTOFF_ONLY?.trim() === '0' ? [] : ['--liftoff-only'];
}

/**
 * Environment for the app process's C allocator. glibc's malloc raises its mmap threshold each
 * time a large block is freed, so later large blocks (PGlite's WASM compilation, Node buffers)
 * come from the main heap, where freed space stays in the process: 68 MB of `[heap]` in
 * /proc/<pid>/smaps of an idle app. Setting M_TRIM_THRESHOLD (to glibc's own default, 128 KiB)
 * turns that dynamic adjustment off (mallopt(3)), so blocks past 128 KiB are mapped and given
 * back when freed: idle RSS 262–292 → 214–239 MB over the same 75 s. An operator's own MALLOC_*
 * or GLIBC_TUNABLES settings win.
 */
export function appMallocEnv(env = process.env) {
  const own = Object.keys(env).some((k) => k.startsWith('MALLOC_') || k === 'GLIBC_TUNABLES');
  return own ? {} : { MALLOC_TRIM_THRESHOLD_: '131072' };
}

/** The `next` CLI script, run with process.execPath and appNodeArgs(). */
export const nextBin = (root) => `${root}/node_modules/next/dist/bin/next`;
