import { Track, type AudioProcessorOptions, type LocalAudioTrack, type TrackProcessor } from 'livekit-client';

/** RNNoise works on 10 ms frames at 48 kHz, samples scaled as 16-bit integers. */
const FRAME = 480;
const RATE = 48_000;
const SCALE = 32_768;

interface RnnoiseModule {
  _rnnoise_create(model: number): number;
  _rnnoise_destroy(state: number): void;
  _rnnoise_process_frame(state: number, output: number, input: number): number;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  HEAPF32: Float32Array;
}

/**
 * Noise suppression for the microphone with RNNoise (Jitsi's WebAssembly build, its .wasm
 * served from our origin by app/call-assets): the microphone runs through RNNoise in a Web Audio
 * graph and the cleaned track is what is sent. The module loads on first use only.
 */
class RnnoiseProcessor implements TrackProcessor<Track.Kind.Audio, AudioProcessorOptions> {
  name = 'convene-rnnoise';
  processedTrack?: MediaStreamTrack;
  private teardown: (() => void) | null = null;

  async init({ track, audioContext }: AudioProcessorOptions) {
    const { default: createModule } = await import('@jitsi/rnnoise-wasm/dist/rnnoise.js');
    const rnnoise = (await createModule({ locateFile: (file) => `/call-assets/${file}` })) as RnnoiseModule;
    const state = rnnoise._rnnoise_create(0);
    const input = rnnoise._malloc(FRAME * 4);
    const output = rnnoise._malloc(FRAME * 4);

    const source = audioContext.createMediaStreamSource(new MediaStream([track]));
    // A ScriptProcessor keeps RNNoise on this thread: no worklet module or wasm hand-over needed.
    const node = audioContext.createScriptProcessor(1024, 1, 1);
    const destination = audioContext.createMediaStreamDestination();
    // Samples waiting for a whole frame, and cleaned samples waiting to be played (one frame of
    // silence first, so a block never runs dry).
    let pending = new Float32Array(0);
    let cleaned = new Float32Array(FRAME);
    node.onaudioprocess = ({ inputBuffer, outputBuffer }) => {
      const joined = new Float32Array(pending.length + inputBuffer.length);
      joined.set(pending);
      joined.set(inputBuffer.getChannelData(0), pending.length);
      const frames = Math.floor(joined.length / FRAME);
      const out = new Float32Array(cleaned.length + frames * FRAME);
      out.set(cleaned);
      for (let f = 0; f < frames; f++) {
        const heapIn = input / 4;
        for (let i = 0; i < FRAME; i++) rnnoise.HEAPF32[heapIn + i] = joined[f * FRAME + i] * SCALE;
        rnnoise._rnnoise_process_frame(state, output, input);
        const heapOut = output / 4;
        for (let i = 0; i < FRAME; i++) out[cleaned.length + f * FRAME + i] = rnnoise.HEAPF32[heapOut + i] / SCALE;
      }
      pending = joined.slice(frames * FRAME);
      const block = outputBuffer.getChannelData(0);
      block.set(out.subarray(0, block.length));
      cleaned = out.slice(block.length);
    };
    source.connect(node);
    node.connect(destination);
    this.processedTrack = destination.stream.getAudioTracks()[0];
    this.teardown = () => {
      source.disconnect();
      node.disconnect();
      node.onaudioprocess = null;
      rnnoise._rnnoise_destroy(state);
      rnnoise._free(input);
      rnnoise._free(output);
    };
  }

  async restart(options: AudioProcessorOptions) {
    await this.destroy();
    await this.init(options);
  }

  async destroy() {
    this.teardown?.();
    this.teardown = null;
    this.processedTrack = undefined;
  }
}

let context: AudioContext | null = null;

/** Turns noise suppression on or off for the microphone track. */
export async function setNoiseSuppression(track: LocalAudioTrack, on: boolean): Promise<void> {
  if (!on) return track.stopProcessor();
  // RNNoise needs 48 kHz; LiveKit needs a context on the track before it takes an audio processor.
  context ??= new AudioContext({ sampleRate: RATE });
  await context.resume();
  track.setAudioContext(context);
  await track.setProcessor(new RnnoiseProcessor());
}
