/**
 * A browser that speaks: espeak-ng says a phrase into a WAV file, followed by silence (Chromium
 * loops the file as its fake microphone, so the speech comes with pauses), and Chromium is
 * launched with that file as its microphone. For the captions and "you are muted" tests.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';

/** The phrase as 16-bit mono WAV with `silenceSeconds` of silence after it; how long the speech lasts. */
function speechFile(phrase: string, silenceSeconds = 1.5) {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'convene-speech-')), 'speech.wav');
  execFileSync('espeak-ng', ['-w', file, phrase]);
  const wav = readFileSync(file);
  const rate = wav.readUInt32LE(24);
  const data = wav.subarray(44);
  const silence = Buffer.alloc(Math.round(rate * silenceSeconds) * 2);
  const header = Buffer.from(wav.subarray(0, 44));
  header.writeUInt32LE(36 + data.length + silence.length, 4);
  header.writeUInt32LE(data.length + silence.length, 40);
  writeFileSync(file, Buffer.concat([header, data, silence]));
  return { file, speechSeconds: data.length / 2 / rate };
}

/** Headless Chromium whose fake microphone says `phrase` again and again; how long each saying lasts. */
export async function launchSpeakingChromium(phrase: string, { silenceSeconds = 1.5 } = {}) {
  const speech = speechFile(phrase, silenceSeconds);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${speech.file}`,
      '--autoplay-policy=no-user-gesture-required',
      '--disable-gpu',
    ],
  });
  return { browser, speechSeconds: speech.speechSeconds };
}
