//! Mirrors `brass_stats.engine.setup.SplitMix64` and CPython's `random.Random` (held equal by tests/test_core_rng.py).
//!
//! * [`SplitMix64`] mirrors `brass_stats.engine.setup.SplitMix64` (the seeded deal: `below` by
//!   rejection, Fisher-Yates from the last position down).
//! * [`PyRandom`] mirrors CPython's `random.Random` for the calls the bots make (`seed` from an
//!   integer, `getrandbits`, `random`, `choice`, `shuffle`, `getstate`/`setstate`): CPython's
//!   Mersenne Twister, seeded as CPython seeds it, and its rules for turning 32-bit outputs into numbers.
//!
//! `tests/test_core_rng.py` holds both equal to the Python generators.

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    pub state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GOLDEN);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform integer in [0, n) by rejection sampling (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        // limit = 2**64 - 2**64 % n, in 128 bits as the reference computes it in Python integers
        let limit = (1u128 << 64) - ((1u128 << 64) % n as u128);
        loop {
            let x = self.next_u64();
            if (x as u128) < limit {
                return x % n;
            }
        }
    }

    /// Fisher-Yates, from the last position down: swap i with below(i + 1).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// CPython's `random.Random`, for the draws the bots make: its Mersenne Twister (MT19937) with
/// CPython's seeding and its state as `getstate()` shows it, so a bot can continue the very stream
/// a Python caller draws from and hand it back (`setstate`). Written out here because the Rust
/// Mersenne Twister crates do not import a state with its position.
#[derive(Clone)]
pub struct PyRandom {
    mt: [u32; N],
    index: usize,
}

const N: usize = 624;
const M: usize = 397;

impl std::fmt::Debug for PyRandom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PyRandom(index={})", self.index)
    }
}

impl PyRandom {
    fn init_genrand(s: u32) -> PyRandom {
        let mut mt = [0u32; N];
        mt[0] = s;
        for i in 1..N {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        PyRandom { mt, index: N }
    }

    /// `random.Random(seed)` for a non-negative integer given as its 32-bit words, least significant
    /// first (CPython's `init_by_array` over them).
    pub fn from_words(words: &[u32]) -> PyRandom {
        let mut key: Vec<u32> = words.to_vec();
        while key.len() > 1 && key.last() == Some(&0) {
            key.pop();
        }
        if key.is_empty() {
            key.push(0);
        }
        let mut r = PyRandom::init_genrand(19_650_218);
        let mt = &mut r.mt;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            mt[i] = (mt[i] ^ (mt[i - 1] ^ (mt[i - 1] >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        r
    }

    /// `random.Random(seed)` for a seed below 2**64.
    pub fn new(seed: u64) -> PyRandom {
        PyRandom::from_words(&[seed as u32, (seed >> 32) as u32])
    }

    /// The generator in the state `random.Random.getstate()` shows: 624 words and the position.
    pub fn from_state(words: &[u32], index: usize) -> Option<PyRandom> {
        let mt: [u32; N] = words.try_into().ok()?;
        (index <= N).then_some(PyRandom { mt, index })
    }

    /// The 624 words and the position, for `random.Random.setstate()`.
    pub fn state(&self) -> (Vec<u32>, usize) {
        (self.mt.to_vec(), self.index)
    }

    fn next_u32(&mut self) -> u32 {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX_A: u32 = 0x9908_b0df;
        if self.index >= N {
            let mt = &mut self.mt;
            for k in 0..N {
                let y = (mt[k] & UPPER) | (mt[(k + 1) % N] & LOWER);
                let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
                mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ mag;
            }
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for k <= 64.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return (self.next_u32() >> (32 - k)) as u64;
        }
        let low = self.next_u32() as u64;
        let high = (self.next_u32() >> (64 - k)) as u64;
        low | high << 32
    }

    /// `random()`: a float in [0, 1) from 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `_randbelow(n)` (n > 0): getrandbits of n's bit length until below n.
    pub fn below(&mut self, n: usize) -> usize {
        let k = usize::BITS - n.leading_zeros();
        loop {
            let r = self.getrandbits(k) as usize;
            if r < n {
                return r;
            }
        }
    }

    /// `choice(seq)`: the index of the element chosen from a sequence of `len` (> 0) items.
    pub fn choice(&mut self, len: usize) -> usize {
        self.below(len)
    }

    /// `shuffle(x)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_first_output_matches_the_reference_docstring() {
        // brass_stats.engine.setup.SplitMix64(0).next() == 0xe220a8397b1dcdaf
        assert_eq!(SplitMix64::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn python_random_first_float_of_seed_zero() {
        // random.Random(0).random() == 0.8444218515250481
        assert_eq!(PyRandom::new(0).random(), 0.844_421_851_525_048_1);
    }
}
