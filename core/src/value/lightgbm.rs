//! Mirrors LightGBM's own prediction (`lightgbm.Booster.predict(rows, num_threads=1)`) for the
//! models `brass_stats.bots.value` ships (held equal by tests/test_core_value.py).
//!
//! Reads LightGBM's text model format (version v4) into flat arrays and evaluates it the way
//! LightGBM does: a dense row's values within `kZeroThreshold` of zero read as 0 (the C API drops
//! them from the row), each numerical split sends `fval <= threshold` left, NaN and zero follow the
//! split's missing type, the raw score is the trees' leaf values added in tree order onto 0.0 in
//! double, and the objective's transform turns it into the prediction. Anything the shipped models
//! do not use (categorical splits, linear trees, several classes, averaged output) is refused when
//! the model is read, never predicted wrongly. A model whose splits all have missing type None
//! (the shipped ones) is walked by [`super::forest`], the others node by node here.

use super::forest::{Forest, TreeParts, LANES, STACK_FEATURES};
use crate::{invalid, CoreError, CoreResult};
use arrayvec::ArrayVec;
use std::io::Read;

/// LightGBM's `kZeroThreshold` (`const double kZeroThreshold = 1e-35f;`, a float widened).
pub(super) const ZERO_THRESHOLD: f64 = 1e-35f32 as f64;

/// `decision_type` bits (LightGBM tree.h): categorical, default left, missing type (2 bits).
const CATEGORICAL_MASK: u8 = 1;
const DEFAULT_LEFT_MASK: u8 = 2;

/// What a split does with a missing value (`MissingType` in LightGBM).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Missing {
    None,
    Zero,
    NaN,
}

/// One numerical split; a child `c < 0` is the leaf `!c` of the same tree (LightGBM's encoding).
#[derive(Clone, Copy, Debug)]
struct Node {
    threshold: f64,
    feature: u32,
    left: i32,
    right: i32,
    missing: Missing,
    default_left: bool,
}

/// Where one tree's nodes and leaves lie in the booster's flat arrays.
#[derive(Clone, Copy, Debug)]
struct TreeSpan {
    nodes: u32,
    leaves: u32,
    num_leaves: u32,
}

/// The transform from the raw score to the prediction (`ObjectiveFunction::ConvertOutput`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Objective {
    /// `binary sigmoid:s`: `1 / (1 + exp(-s * x))`
    Binary { sigmoid: f64 },
    /// `cross_entropy`: `1 / (1 + exp(-x))`
    CrossEntropy,
    /// `regression` (squared error, without `sqrt`): the raw score itself
    Regression,
}

impl Objective {
    fn parse(text: &str) -> CoreResult<Objective> {
        let mut words = text.split_whitespace();
        let name = words.next().unwrap_or("");
        let rest: Vec<&str> = words.collect();
        match name {
            "binary" => {
                let mut sigmoid = 1.0;
                for w in &rest {
                    match w.split_once(':') {
                        Some(("sigmoid", v)) => sigmoid = parse_f64(v, "the sigmoid")?,
                        _ => return invalid(format!("model: binary objective option {w:?} is not supported")),
                    }
                }
                if sigmoid.is_nan() || sigmoid <= 0.0 {
                    return invalid(format!("model: the sigmoid must be positive, not {sigmoid}"));
                }
                Ok(Objective::Binary { sigmoid })
            }
            "cross_entropy" | "xentropy" if rest.is_empty() => Ok(Objective::CrossEntropy),
            "regression" if rest.is_empty() => Ok(Objective::Regression),
            _ => invalid(format!(
                "model: objective {text:?} is not supported (binary, cross_entropy and regression are)"
            )),
        }
    }

    /// The prediction from the raw score, with LightGBM's arithmetic (`1.0f` widens to 1.0).
    pub fn transform(self, raw: f64) -> f64 {
        match self {
            Objective::Binary { sigmoid } => 1.0 / (1.0 + (-sigmoid * raw).exp()),
            Objective::CrossEntropy => 1.0 / (1.0 + (-raw).exp()),
            Objective::Regression => raw,
        }
    }
}

/// A LightGBM model read from its text format: trees of numerical splits and an objective.
#[derive(Clone, Debug)]
pub struct Booster {
    objective: Objective,
    feature_names: Vec<String>,
    trees: Vec<TreeSpan>,
    nodes: Vec<Node>,
    leaves: Vec<f64>,
    /// the same trees laid out for fast walks, when every split's missing type is None
    forest: Option<Forest>,
}

fn parse_f64(text: &str, what: &str) -> CoreResult<f64> {
    text.trim()
        .parse::<f64>()
        .map_err(|_| CoreError::Invalid(format!("model: {what}: {text:?} is not a number")))
}

fn parse_list<T: std::str::FromStr>(text: &str, what: &str) -> CoreResult<Vec<T>> {
    text.split_whitespace()
        .map(|w| {
            w.parse::<T>()
                .map_err(|_| CoreError::Invalid(format!("model: {what}: {w:?} does not parse")))
        })
        .collect()
}

/// The `key=value` lines of one block of the file (the header or one tree).
struct Block<'a> {
    what: String,
    lines: Vec<(&'a str, &'a str)>,
}

impl<'a> Block<'a> {
    fn get(&self, key: &str) -> Option<&'a str> {
        self.lines.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    fn need(&self, key: &str) -> CoreResult<&'a str> {
        self.get(key)
            .ok_or_else(|| CoreError::Invalid(format!("model: {} has no {key}", self.what)))
    }

    fn list<T: std::str::FromStr>(&self, key: &str, len: usize) -> CoreResult<Vec<T>> {
        let what = format!("{} {key}", self.what);
        let v: Vec<T> = parse_list(self.need(key)?, &what)?;
        if v.len() != len {
            return invalid(format!("model: {what} has {} values, not {len}", v.len()));
        }
        Ok(v)
    }
}

/// Split the text into the header block and the tree blocks (up to `end of trees`).
fn blocks(text: &str) -> CoreResult<(Block<'_>, Vec<Block<'_>>)> {
    let mut header = Block {
        what: "the header".into(),
        lines: Vec::new(),
    };
    let mut trees: Vec<Block> = Vec::new();
    let mut ended = false;
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line == "end of trees" {
            ended = true;
            break;
        }
        if line.is_empty() {
            continue;
        }
        let (key, value) = line.split_once('=').unwrap_or((line, ""));
        if key == "Tree" {
            trees.push(Block {
                what: format!("tree {value}"),
                lines: Vec::new(),
            });
        } else if let Some(tree) = trees.last_mut() {
            tree.lines.push((key, value));
        } else {
            header.lines.push((key, value));
        }
    }
    if !ended {
        return invalid("model: no `end of trees` line (not a LightGBM text model?)");
    }
    Ok((header, trees))
}

fn check_header(header: &Block) -> CoreResult<(Objective, Vec<String>)> {
    if header.lines.first().map(|(k, _)| *k) != Some("tree") {
        return invalid("model: the text does not start with `tree` (not a LightGBM text model)");
    }
    for (key, want) in [("num_class", "1"), ("num_tree_per_iteration", "1")] {
        let got = header.need(key)?;
        if got.trim() != want {
            return invalid(format!("model: {key}={got} is not supported (only {want})"));
        }
    }
    if header.get("average_output").is_some() {
        return invalid("model: averaged output (random forest) is not supported");
    }
    let objective = Objective::parse(header.need("objective")?)?;
    let max_feature: usize = header
        .need("max_feature_idx")?
        .trim()
        .parse()
        .map_err(|_| CoreError::Invalid("model: max_feature_idx does not parse".into()))?;
    let names: Vec<String> = header
        .need("feature_names")?
        .split_whitespace()
        .map(str::to_string)
        .collect();
    if names.len() != max_feature + 1 {
        return invalid(format!(
            "model: {} feature names for max_feature_idx={max_feature}",
            names.len()
        ));
    }
    Ok((objective, names))
}

impl Booster {
    /// A model from LightGBM's text format (`Booster.model_to_string()`).
    pub fn from_text(text: &str) -> CoreResult<Booster> {
        let (header, blocks) = blocks(text)?;
        let (objective, feature_names) = check_header(&header)?;
        let mut booster = Booster {
            objective,
            feature_names,
            trees: Vec::with_capacity(blocks.len()),
            nodes: Vec::new(),
            leaves: Vec::new(),
            forest: None,
        };
        for block in &blocks {
            booster.add_tree(block)?;
        }
        booster.forest = booster.fast_layout();
        Ok(booster)
    }

    /// A model from a gzip-compressed text file's bytes (the shipped `*.txt.gz`).
    pub fn from_gzip(bytes: &[u8]) -> CoreResult<Booster> {
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_string(&mut text)
            .map_err(|e| CoreError::Invalid(format!("model: not gzip-compressed text: {e}")))?;
        Booster::from_text(&text)
    }

    fn add_tree(&mut self, block: &Block) -> CoreResult<()> {
        let what = &block.what;
        let num_leaves: usize =
            block.need("num_leaves")?.trim().parse().map_err(|_| {
                CoreError::Invalid(format!("model: {what} num_leaves does not parse"))
            })?;
        if num_leaves == 0 {
            return invalid(format!("model: {what} has no leaves"));
        }
        if block.get("num_cat").is_some_and(|v| v.trim() != "0") {
            return invalid(format!(
                "model: {what} has categorical splits (not supported)"
            ));
        }
        if block.get("is_linear").is_some_and(|v| v.trim() != "0") {
            return invalid(format!("model: {what} is a linear tree (not supported)"));
        }
        let leaves: Vec<f64> = block.list("leaf_value", num_leaves)?;
        let internal = num_leaves - 1;
        let span = TreeSpan {
            nodes: self.nodes.len() as u32,
            leaves: self.leaves.len() as u32,
            num_leaves: num_leaves as u32,
        };
        if internal > 0 {
            let features: Vec<u32> = block.list("split_feature", internal)?;
            let thresholds: Vec<f64> = block.list("threshold", internal)?;
            let decisions: Vec<u8> = block.list("decision_type", internal)?;
            let lefts: Vec<i32> = block.list("left_child", internal)?;
            let rights: Vec<i32> = block.list("right_child", internal)?;
            for i in 0..internal {
                let node = self.node(what, i, features[i], decisions[i])?;
                let (left, right) = (lefts[i], rights[i]);
                for child in [left, right] {
                    check_child(what, i, child, num_leaves)?;
                }
                self.nodes.push(Node {
                    threshold: thresholds[i],
                    left,
                    right,
                    ..node
                });
            }
        }
        self.leaves.extend(leaves);
        self.trees.push(span);
        Ok(())
    }

    /// Node `i`'s feature and decision type, checked (children and threshold are filled in later).
    fn node(&self, what: &str, i: usize, feature: u32, decision: u8) -> CoreResult<Node> {
        if feature as usize >= self.feature_names.len() {
            return invalid(format!(
                "model: {what} node {i} splits on feature {feature}, past the last"
            ));
        }
        if decision & CATEGORICAL_MASK != 0 {
            return invalid(format!(
                "model: {what} node {i} is a categorical split (not supported)"
            ));
        }
        let missing = match (decision >> 2) & 3 {
            0 => Missing::None,
            1 => Missing::Zero,
            2 => Missing::NaN,
            _ => {
                return invalid(format!(
                    "model: {what} node {i} has an unknown missing type"
                ))
            }
        };
        Ok(Node {
            threshold: 0.0,
            feature,
            left: 0,
            right: 0,
            missing,
            default_left: decision & DEFAULT_LEFT_MASK != 0,
        })
    }

    pub fn objective(&self) -> Objective {
        self.objective
    }

    /// The features the model was trained on, in column order.
    pub fn feature_names(&self) -> &[String] {
        &self.feature_names
    }

    pub fn num_trees(&self) -> usize {
        self.trees.len()
    }

    /// The fast layout, for a model whose splits all have missing type None and whose rows fit
    /// on the stack.
    fn fast_layout(&self) -> Option<Forest> {
        if self.feature_names.len() > STACK_FEATURES
            || self.nodes.iter().any(|n| n.missing != Missing::None)
        {
            return None;
        }
        Forest::new(self.trees.iter().map(|t| {
            let first = t.nodes as usize;
            let nodes = &self.nodes[first..first + t.num_leaves as usize - 1];
            TreeParts {
                splits: nodes
                    .iter()
                    .map(|n| (n.feature, n.threshold, n.left, n.right))
                    .collect(),
                leaves: &self.leaves[t.leaves as usize..(t.leaves + t.num_leaves) as usize],
            }
        }))
    }

    fn check_width(&self, row: &[f64]) -> CoreResult<()> {
        if row.len() == self.feature_names.len() {
            return Ok(());
        }
        invalid(format!(
            "a row of {} features for a model of {}",
            row.len(),
            self.feature_names.len()
        ))
    }

    /// The sum of the trees' outputs for one row (`predict(raw_score=True)`).
    pub fn predict_raw(&self, row: &[f64]) -> CoreResult<f64> {
        let mut out = ArrayVec::<f64, LANES>::new();
        self.predict_raw_into(&[row], &mut out)?;
        Ok(out[0])
    }

    /// The model's prediction for one row (`predict`: the objective's transform of the raw score).
    pub fn predict(&self, row: &[f64]) -> CoreResult<f64> {
        Ok(self.objective.transform(self.predict_raw(row)?))
    }

    /// The raw scores of `rows`, in order, added to `out` (rows walk the trees four at a time).
    pub fn predict_raw_into<R: AsRef<[f64]>>(
        &self,
        rows: &[R],
        out: &mut impl Extend<f64>,
    ) -> CoreResult<()> {
        for r in rows {
            self.check_width(r.as_ref())?;
        }
        for chunk in rows.chunks(LANES) {
            match &self.forest {
                Some(forest) => out.extend(forest.walk_together(chunk)),
                None => out.extend(chunk.iter().map(|r| self.raw_score(r.as_ref()))),
            }
        }
        Ok(())
    }

    /// The predictions of `rows`, in order, added to `out`.
    pub fn predict_into<R: AsRef<[f64]>>(
        &self,
        rows: &[R],
        out: &mut impl Extend<f64>,
    ) -> CoreResult<()> {
        let mut raw = ArrayVec::<f64, LANES>::new();
        for chunk in rows.chunks(LANES) {
            raw.clear();
            self.predict_raw_into(chunk, &mut raw)?;
            out.extend(raw.iter().map(|&x| self.objective.transform(x)));
        }
        Ok(())
    }

    /// `GBDT::PredictRaw`, node by node: the trees' outputs added onto 0.0 in tree order.
    fn raw_score(&self, row: &[f64]) -> f64 {
        let mut sum = 0.0;
        for tree in &self.trees {
            sum += self.tree_output(*tree, row);
        }
        sum
    }

    /// `Tree::Predict`: walk from the root to a leaf (a single-leaf tree is its leaf).
    fn tree_output(&self, tree: TreeSpan, row: &[f64]) -> f64 {
        let leaves = &self.leaves[tree.leaves as usize..];
        if tree.num_leaves == 1 {
            return leaves[0];
        }
        let nodes = &self.nodes[tree.nodes as usize..];
        let mut at = 0i32;
        while at >= 0 {
            let node = &nodes[at as usize];
            at = decide(node, row[node.feature as usize]);
        }
        leaves[!at as usize]
    }
}

/// A child must be a leaf of the tree or a later node (LightGBM appends a split's node after its
/// parent), so that every walk from the root ends.
fn check_child(what: &str, i: usize, child: i32, num_leaves: usize) -> CoreResult<()> {
    let ok = if child < 0 {
        (!child as usize) < num_leaves
    } else {
        (child as usize) > i && (child as usize) < num_leaves - 1
    };
    if ok {
        Ok(())
    } else {
        invalid(format!(
            "model: {what} node {i} has child {child}, out of order or range"
        ))
    }
}

/// `Tree::NumericalDecision`, after the C API's row reading (values within the zero threshold read
/// as 0): the next node (or `!leaf`).
#[inline]
fn decide(node: &Node, value: f64) -> i32 {
    let mut fval = if value.abs() <= ZERO_THRESHOLD {
        0.0
    } else {
        value
    };
    if fval.is_nan() && node.missing != Missing::NaN {
        fval = 0.0;
    }
    let is_missing = match node.missing {
        Missing::Zero => (-ZERO_THRESHOLD..=ZERO_THRESHOLD).contains(&fval),
        Missing::NaN => fval.is_nan(),
        Missing::None => false,
    };
    if is_missing {
        return if node.default_left {
            node.left
        } else {
            node.right
        };
    }
    if fval <= node.threshold {
        node.left
    } else {
        node.right
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(objective: &str, tree: &str) -> String {
        format!(
            "tree\nversion=v4\nnum_class=1\nnum_tree_per_iteration=1\nlabel_index=0\n\
             max_feature_idx=1\nobjective={objective}\nfeature_names=a b\n\n{tree}\n\nend of trees\n"
        )
    }

    const STUMP: &str = "Tree=0\nnum_leaves=2\nnum_cat=0\nsplit_feature=1\nthreshold=0.5\n\
                         decision_type=2\nleft_child=-1\nright_child=-2\nleaf_value=1.5 -2.25\n\
                         is_linear=0\nshrinkage=1";

    #[test]
    fn a_stump_splits_on_its_threshold() {
        let b = Booster::from_text(&model("regression", STUMP)).unwrap();
        assert_eq!(b.predict(&[9.0, 0.5]).unwrap(), 1.5);
        assert_eq!(b.predict(&[9.0, 0.500001]).unwrap(), -2.25);
        // NaN reads as 0 with missing type None
        assert_eq!(b.predict(&[9.0, f64::NAN]).unwrap(), 1.5);
        assert!(b.predict(&[1.0]).is_err());
    }

    #[test]
    fn the_sigmoid_transforms_the_raw_score() {
        let b = Booster::from_text(&model("binary sigmoid:2", STUMP)).unwrap();
        assert_eq!(
            b.predict(&[0.0, 0.0]).unwrap(),
            1.0 / (1.0 + (-3.0f64).exp())
        );
    }

    #[test]
    fn unsupported_models_are_refused() {
        let cat = STUMP.replace("num_cat=0", "num_cat=1");
        assert!(Booster::from_text(&model("regression", &cat)).is_err());
        let dt = STUMP.replace("decision_type=2", "decision_type=1");
        assert!(Booster::from_text(&model("regression", &dt)).is_err());
        assert!(Booster::from_text(&model("multiclass num_class:3", STUMP)).is_err());
        let cycle = STUMP.replace("left_child=-1", "left_child=0");
        assert!(Booster::from_text(&model("regression", &cycle)).is_err());
        assert!(Booster::from_text("garbage").is_err());
    }

    /// Rows around the model's own thresholds, zeros, tiny, huge and NaN values.
    fn drawn_rows(b: &Booster, count: usize) -> Vec<Vec<f64>> {
        let mut rng = crate::rng::SplitMix64::new(5);
        let special = [
            0.0,
            -0.0,
            1e-36,
            -ZERO_THRESHOLD,
            1e300,
            f64::NAN,
            f64::INFINITY,
        ];
        (0..count)
            .map(|_| {
                (0..b.feature_names.len())
                    .map(|_| {
                        let node = &b.nodes[rng.below(b.nodes.len() as u64) as usize];
                        match rng.below(4) {
                            0 => node.threshold,
                            1 => node.threshold + node.threshold.abs() * 1e-15,
                            2 => special[rng.below(special.len() as u64) as usize],
                            _ => (rng.below(2001) as f64 - 1000.0) / 8.0,
                        }
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_fast_walk_equals_the_node_by_node_walk() {
        use super::super::models::{SHIPPED_FINAL_VP, SHIPPED_WIN_MODEL};
        for bytes in [SHIPPED_WIN_MODEL, SHIPPED_FINAL_VP] {
            let b = Booster::from_gzip(bytes).unwrap();
            assert!(b.forest.is_some());
            let rows = drawn_rows(&b, 3001);
            let mut fast = Vec::new();
            b.predict_raw_into(&rows, &mut fast).unwrap();
            let exact: Vec<f64> = rows.iter().map(|r| b.raw_score(r)).collect();
            assert_eq!(fast, exact);
        }
    }
}
