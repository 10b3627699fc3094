#!/bin/sh
# Starts the production server (`npm start`, the Docker image, the bench): node on $BUILD_DIR/server.js (default
# build) with glibc's allocator told to give memory back (docs/decisions/memory-settings.md). Each can be overridden.
#   MALLOC_ARENA_MAX=2           two malloc arenas instead of up to 8 per core: the libuv pool's threads (scrypt,
#                                compression, file I/O) no longer each keep an arena of their own
#   MALLOC_MMAP_THRESHOLD_=128K  allocations from 128 KiB up are mapped and unmapped on free, always: glibc otherwise
#                                raises the threshold after the first free of a large block, so every sign-in's
#                                16 MiB scrypt buffer (and every compressor's) stays in the heap for good
#   MALLOC_TRIM_THRESHOLD_=128K  free memory at the top of the heap is returned from 128 KiB on
# and V8's young generation allowed to grow to 32 MB semi-spaces instead of 16 (NODE_SEMI_SPACE_MB): a page's objects,
# alive while ~10 requests wait their turn, die young instead of being copied into the old generation (64 is faster
# still but kept RSS at ~330 MB after a burst: docs/decisions/memory-settings.md).
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
export MALLOC_TRIM_THRESHOLD_="${MALLOC_TRIM_THRESHOLD_:-131072}"
exec "${NODE:-node}" --max-semi-space-size="${NODE_SEMI_SPACE_MB:-32}" "${BUILD_DIR:-build}/server.js" "$@"
