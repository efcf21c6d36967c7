import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STREAM_FRAME_MS, StreamBatcher } from '../../src/ui/stream-batcher.js';

/** A batcher on the fake clock, and what it has handed over so far. */
function batcher(): { batcher: StreamBatcher; flushed: string[] } {
  const flushed: string[] = [];
  return {
    batcher: new StreamBatcher(
      (text) => flushed.push(text),
      () => Date.now(),
    ),
    flushed,
  };
}

describe('batching a streamed reply into frames', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the first text of a reply at once, the deltas of one chunk as one frame', async () => {
    const { batcher: stream, flushed } = batcher();
    stream.append('Hel');
    stream.append('lo');
    expect(flushed).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(flushed).toEqual(['Hello']);
  });

  it('holds text that comes within a frame of the last one until the frame boundary, and no longer', async () => {
    const { batcher: stream, flushed } = batcher();
    stream.append('one');
    await vi.advanceTimersByTimeAsync(1);
    stream.append(' two');
    await vi.advanceTimersByTimeAsync(4);
    stream.append(' three');
    await vi.advanceTimersByTimeAsync(STREAM_FRAME_MS - 7);
    expect(flushed).toEqual(['one']);
    await vi.advanceTimersByTimeAsync(2);
    expect(flushed).toEqual(['one', ' two three']);
  });

  it('schedules nothing while no text comes', async () => {
    const { batcher: stream, flushed } = batcher();
    stream.append('text');
    await vi.advanceTimersByTimeAsync(STREAM_FRAME_MS * 3);
    expect(flushed).toEqual(['text']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('spreads the frames out when drawing one takes long, and closes them up again when it is quick', async () => {
    const flushed: string[] = [];
    let drawMs = 20;
    const stream = new StreamBatcher(
      (text) => {
        flushed.push(text);
        vi.setSystemTime(Date.now() + drawMs);
      },
      () => Date.now(),
    );
    stream.append('slow');
    await vi.advanceTimersByTimeAsync(1);
    drawMs = 0;
    stream.append(' next');
    // About four times the 20 ms the first frame took to draw: later than a quick frame would come.
    await vi.advanceTimersByTimeAsync(STREAM_FRAME_MS + 4);
    expect(flushed).toEqual(['slow']);
    await vi.advanceTimersByTimeAsync(40);
    expect(flushed).toEqual(['slow', ' next']);
    await vi.advanceTimersByTimeAsync(1);
    stream.append(' quick');
    await vi.advanceTimersByTimeAsync(STREAM_FRAME_MS + 1);
    expect(flushed).toEqual(['slow', ' next', ' quick']);
  });

  it('hands over what is pending on flush, and drops it on dispose', async () => {
    const { batcher: stream, flushed } = batcher();
    stream.append('kept');
    stream.flush();
    stream.append('dropped');
    stream.dispose();
    await vi.advanceTimersByTimeAsync(STREAM_FRAME_MS);
    expect(flushed).toEqual(['kept']);
    expect(vi.getTimerCount()).toBe(0);
  });
});
