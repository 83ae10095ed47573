/** @jitsi/rnnoise-wasm ships no types: its Emscripten factory, as noise.ts uses it. */
declare module '@jitsi/rnnoise-wasm/dist/rnnoise.js' {
  const createRNNWasmModule: (options: { locateFile: (file: string) => string }) => Promise<unknown>;
  export default createRNNWasmModule;
}
