"""Synthesise the game's sounds with numpy and write them to ``assets/sounds`` as small WAVs.

    python tools/make_sounds.py [OUT_FOLDER]      (default: assets/sounds)

Every sound is made here from noise and tones, with a fixed seed, so the files can be made
again byte for byte and carry no one else's licence:

- ``move``: a pencil stroke, scratchy band-limited noise under a quick swell and fade;
- ``crash``: a crunch, a burst of low noise with a falling thump and crackles;
- ``bump``: a collision, a short low thud;
- ``finish``: a flourish, a rising arpeggio of soft bell tones;
- ``lap``: two quick chimes;
- ``out``: a falling pair of dull tones;
- ``click``: a menu click, a tiny tick.
"""

from __future__ import annotations

import argparse
import wave
from pathlib import Path

import numpy as np

RATE = 22050
SEED = 1973  # the year of Gardner's column


def seconds(length: float) -> np.ndarray:
    return np.arange(int(RATE * length)) / RATE


def envelope(t: np.ndarray, attack: float, decay: float) -> np.ndarray:
    """A quick rise and an exponential fall."""
    rise = np.clip(t / max(attack, 1e-4), 0, 1)
    return rise * np.exp(-np.maximum(t - attack, 0) / decay)


def smooth(signal: np.ndarray, width: int) -> np.ndarray:
    """A moving average: a crude low-pass filter."""
    kernel = np.ones(width) / width
    return np.convolve(signal, kernel, mode="same")


def pencil(rng: np.random.Generator) -> np.ndarray:
    t = seconds(0.24)
    noise = rng.standard_normal(len(t))
    band = smooth(noise, 3) - smooth(noise, 14)  # keep the scratchy middle
    grain = 0.6 + 0.4 * np.abs(smooth(rng.standard_normal(len(t)), 220)) * 6
    shape = np.sin(np.pi * np.clip(t / t[-1], 0, 1)) ** 0.7
    return band * grain * shape * 0.9


def crunch(rng: np.random.Generator) -> np.ndarray:
    t = seconds(0.62)
    noise = rng.standard_normal(len(t))
    low = smooth(noise, 9) * envelope(t, 0.005, 0.16) * 2.2
    thump = np.sin(2 * np.pi * (110 * t - 60 * t ** 2)) * envelope(t, 0.003, 0.12)
    crackle = (rng.random(len(t)) > 0.985) * rng.standard_normal(len(t)) * \
        envelope(t, 0.02, 0.22) * 1.4
    return np.tanh((low + thump + crackle) * 1.5) * 0.8


def thud(rng: np.random.Generator) -> np.ndarray:
    t = seconds(0.26)
    tone = np.sin(2 * np.pi * (95 * t - 70 * t ** 2)) * envelope(t, 0.002, 0.07)
    knock = smooth(rng.standard_normal(len(t)), 5) * envelope(t, 0.001, 0.012)
    return np.tanh((tone + knock * 0.8) * 1.8) * 0.8


def bell(frequency: float, t: np.ndarray, decay: float) -> np.ndarray:
    tone = (np.sin(2 * np.pi * frequency * t) + 0.35 * np.sin(2 * np.pi * 2 * frequency * t)
            + 0.12 * np.sin(2 * np.pi * 3.01 * frequency * t))
    return tone * envelope(t, 0.006, decay)


def notes(frequencies: list[float], gap: float, length: float, decay: float) -> np.ndarray:
    out = np.zeros(int(RATE * (gap * len(frequencies) + length)))
    t = seconds(length)
    for number, frequency in enumerate(frequencies):
        start = int(RATE * gap * number)
        out[start:start + len(t)] += bell(frequency, t, decay)
    return out / np.max(np.abs(out)) * 0.75


def flourish(rng: np.random.Generator) -> np.ndarray:
    return notes([523.25, 659.25, 783.99, 1046.5], 0.09, 0.6, 0.22)


def chime(rng: np.random.Generator) -> np.ndarray:
    return notes([783.99, 1046.5], 0.08, 0.35, 0.12) * 0.8


def out(rng: np.random.Generator) -> np.ndarray:
    t = seconds(0.22)
    low = [np.sin(2 * np.pi * f * t) * envelope(t, 0.004, 0.08) for f in (330, 247)]
    return np.tanh(np.concatenate(low) * 1.4) * 0.6


def click(rng: np.random.Generator) -> np.ndarray:
    t = seconds(0.04)
    return (np.sin(2 * np.pi * 1800 * t) * envelope(t, 0.0005, 0.006)
            + smooth(rng.standard_normal(len(t)), 2) * envelope(t, 0.0002, 0.002)) * 0.5


SOUNDS = {"move": pencil, "crash": crunch, "bump": thud, "finish": flourish, "lap": chime,
          "out": out, "click": click}
#: Each sound's peak: the pencil, heard every move, stays soft; a crash is loud.
PEAKS = {"move": 0.45, "crash": 0.9, "bump": 0.85, "finish": 0.7, "lap": 0.55, "out": 0.6,
         "click": 0.4}


def write_wav(path: Path, signal: np.ndarray) -> None:
    samples = (np.clip(signal, -1, 1) * 32000).astype("<i2")
    with wave.open(str(path), "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(RATE)
        file.writeframes(samples.tobytes())


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, make in SOUNDS.items():
        signal = make(np.random.default_rng([SEED, len(name)]))
        write_wav(folder / f"{name}.wav", signal / np.max(np.abs(signal)) * PEAKS[name])
    print(f"{len(SOUNDS)} sounds in {folder}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", nargs="?", type=Path, metavar="OUT_FOLDER",
                        default=Path(__file__).resolve().parent.parent / "assets" / "sounds",
                        help="where the WAVs are written (default: assets/sounds)")
    main(parser.parse_args().folder)
