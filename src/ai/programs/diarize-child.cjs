// @ts-check
// The program that runs sherpa-onnx on one stretch of audio, in a child process of its
// own. sherpa-onnx aborts the whole process on a model it cannot load (a corrupt or
// foreign file throws a C++ exception nobody catches), so it must never run inside the
// server; a child also gives its memory back when the stretch is done.
//
// argv: the sherpa-onnx-node module's path, the segmentation model, the embedding
// model, the threads to use, the clustering threshold. stdin: 16 kHz mono 16-bit
// (little-endian) samples. stdout: {"turns":[{start,end,speaker}],"voices":{speaker:[...]}}
// with one embedding per voice, from up to 30 s of its speech. Exit 2 with the
// reason on stderr when the models are refused.
const [sherpaPath, segmentation, embedding, threads, threshold] = process.argv.slice(2);
const sherpa = require(sherpaPath);
const RATE = 16000;
const parts = [];
process.stdin.on("data", (c) => parts.push(c));
process.stdin.on("end", () => {
  const bytes = Buffer.concat(parts);
  const samples = new Float32Array(bytes.length >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2) / 32768;
  let diarizer;
  let extractor;
  try {
    diarizer = new sherpa.OfflineSpeakerDiarization({
      segmentation: { pyannote: { model: segmentation }, numThreads: Number(threads), debug: 0 },
      embedding: { model: embedding, numThreads: Number(threads), debug: 0 },
      clustering: { numClusters: -1, threshold: Number(threshold) },
      minDurationOn: 0.3,
      minDurationOff: 0.5,
    });
    extractor = new sherpa.SpeakerEmbeddingExtractor({ model: embedding, numThreads: Number(threads), debug: 0 });
  } catch (err) {
    process.stderr.write("refused: " + err.message + "\n");
    process.exit(2);
  }
  const turns = samples.length >= RATE ? diarizer.process(samples) : [];
  const voices = {};
  for (const speaker of new Set(turns.map((t) => t.speaker))) {
    const own = [];
    let n = 0;
    for (const t of turns) {
      if (t.speaker !== speaker || n >= 30 * RATE) continue;
      const piece = samples.subarray(
        Math.floor(t.start * RATE),
        Math.min(Math.ceil(t.end * RATE), Math.floor(t.start * RATE) + 30 * RATE - n),
      );
      own.push(piece);
      n += piece.length;
    }
    const joined = new Float32Array(n);
    let at = 0;
    for (const p of own) {
      joined.set(p, at);
      at += p.length;
    }
    const stream = extractor.createStream();
    stream.acceptWaveform({ sampleRate: RATE, samples: joined });
    stream.inputFinished();
    if (extractor.isReady(stream)) voices[speaker] = Array.from(extractor.compute(stream));
  }
  process.stdout.write(
    JSON.stringify({ turns: turns.map((t) => ({ start: t.start, end: t.end, speaker: t.speaker })), voices }),
  );
});
