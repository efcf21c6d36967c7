/**
 * Batches a reply's streamed deltas into frames, so a fast model re-renders the screen at most
 * once per frame, not once per token, and a token still reaches the screen within about a frame.
 * Text that comes after a quiet spell is shown at once (on the next turn of the event loop, so
 * the deltas of one network chunk make one frame); text that comes sooner after the last frame
 * waits for the next frame boundary. Nothing is scheduled while no text comes.
 */

/**
 * How often Ink may draw the chat. Ink puts off a render asked for sooner than 1000 / maxFps ms
 * after its last one; at 60 that wait ends before the next stream frame, so each frame is drawn
 * as soon as it is handed over.
 */
export const INK_MAX_FPS = 60;
/**
 * The shortest frame: a token of a fast stream waits half of it on average before it is drawn, so
 * the median token still reaches the screen within a 60 Hz frame. Each frame has a cost whatever
 * it holds, and the frames are most of what the chat spends on a fast stream: fewer, longer frames
 * spend less, up to where a reader would see the text arrive in steps.
 */
export const STREAM_FRAME_MS = 28;
/**
 * A frame lasts at least this many times as long as the last one took to draw, so drawing a stream
 * takes at most about a quarter of a core: on a slow or busy machine the frames spread out instead.
 */
const FRAME_PER_DRAWING = 4;

export class StreamBatcher {
  private pending = '';
  private timer: NodeJS.Timeout | undefined;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private frameMs = STREAM_FRAME_MS;

  constructor(
    private readonly flushTo: (text: string) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  append(delta: string): void {
    this.pending += delta;
    if (this.timer) return;
    const untilNextFrame = this.lastFlushAt + this.frameMs - this.now();
    this.timer = setTimeout(() => this.flush(), Math.max(0, untilNextFrame));
  }

  /** Hands over what is pending now, before an event that needs it, so the order holds. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const text = this.pending;
    this.pending = '';
    if (!text) return;
    const startedAt = this.now();
    this.lastFlushAt = startedAt;
    this.flushTo(text);
    // The frame is drawn in the microtasks that follow (React's render, then Ink's): done by the next check phase.
    setImmediate(() => {
      this.frameMs = Math.max(STREAM_FRAME_MS, (this.now() - startedAt) * FRAME_PER_DRAWING);
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = '';
  }
}
