//! The two random generators the reference uses, reproduced draw for draw.
//!
//! * [`SplitMix64`] mirrors `brass_stats.engine.setup.SplitMix64` (the seeded deal: `below` by
//!   rejection, Fisher-Yates from the last position down).
//! * [`PyRandom`] mirrors CPython's `random.Random` for the calls the bots make (`seed` from an
//!   integer, `getrandbits`, `random`, `choice`, `shuffle`): the Mersenne Twister of `rand_mt`,
//!   seeded as CPython seeds it (`init_by_array` over the integer's 32-bit words, least significant
//!   first), and CPython's own rules for turning its 32-bit outputs into numbers.
//!
//! `tests/test_core_rng.py` holds both equal to the Python generators.

use rand_mt::Mt;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    pub state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next(&mut self) -> u64 {
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
            let x = self.next();
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

/// CPython's `random.Random`, for the draws the bots make.
#[derive(Clone)]
pub struct PyRandom {
    mt: Mt,
}

impl std::fmt::Debug for PyRandom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PyRandom")
    }
}

impl PyRandom {
    /// `random.Random(seed)` for a non-negative integer given as its 32-bit words, least significant first.
    pub fn from_words(words: &[u32]) -> PyRandom {
        let mut key: Vec<u32> = words.to_vec();
        while key.len() > 1 && *key.last().unwrap_or(&1) == 0 {
            key.pop();
        }
        if key.is_empty() {
            key.push(0);
        }
        PyRandom {
            mt: Mt::new_with_key(key),
        }
    }

    /// `random.Random(seed)` for a seed below 2**64.
    pub fn new(seed: u64) -> PyRandom {
        PyRandom::from_words(&[seed as u32, (seed >> 32) as u32])
    }

    fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
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
        assert_eq!(SplitMix64::new(0).next(), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn python_random_first_float_of_seed_zero() {
        // random.Random(0).random() == 0.8444218515250481
        assert_eq!(PyRandom::new(0).random(), 0.844_421_851_525_048_1);
    }
}
