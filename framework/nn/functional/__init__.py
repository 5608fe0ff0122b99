"""Stateless neural-network functions (`framework.nn.functional`), as in `paddle.nn.functional`."""

# --- conv, pooling, normalization, dropout, embedding, interpolate (owner: conv/pool/norm) -----
from framework.nn.functional.common import (
    alpha_dropout,
    dropout,
    dropout1d,
    dropout2d,
    dropout3d,
    feature_alpha_dropout,
    fold,
    interpolate,
    linear,
    pad,
    unfold,
    upsample,
    zeropad2d,
)
from framework.nn.functional.conv import conv1d, conv1d_transpose, conv2d, conv2d_transpose
from framework.nn.functional.conv3d import conv3d, conv3d_transpose
from framework.nn.functional.input import embedding
from framework.nn.functional.norm import (
    batch_norm,
    group_norm,
    instance_norm,
    layer_norm,
    normalize,
)
from framework.nn.functional.pooling import (
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_max_pool1d,
    adaptive_max_pool2d,
    avg_pool1d,
    avg_pool2d,
    max_pool1d,
    max_pool2d,
)

# --- activations, losses, linear, attention helpers (owner: nn layers) --------------------------
from framework.nn.functional.activation import (
    celu,
    elu,
    elu_,
    gelu,
    glu,
    hardshrink,
    hardsigmoid,
    hardswish,
    hardtanh,
    hardtanh_,
    leaky_relu,
    leaky_relu_,
    log_sigmoid,
    log_softmax,
    mish,
    prelu,
    relu,
    relu6,
    relu_,
    selu,
    sigmoid,
    silu,
    softmax,
    softmax_,
    softplus,
    softshrink,
    softsign,
    swish,
    tanh,
    tanhshrink,
    thresholded_relu,
    thresholded_relu_,
)
from framework.nn.functional.adaptive_log_softmax import adaptive_log_softmax_with_loss
from framework.nn.functional.attention import scaled_dot_product_attention
from framework.nn.functional.ctc import ctc_loss
from framework.nn.functional.distance import cosine_similarity, pairwise_distance
from framework.nn.functional.likelihood_loss import gaussian_nll_loss, poisson_nll_loss
from framework.nn.functional.loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    cross_entropy,
    kl_div,
    l1_loss,
    label_smooth,
    log_loss,
    mse_loss,
    nll_loss,
    sigmoid_focal_loss,
    smooth_l1_loss,
    softmax_with_cross_entropy,
    square_error_cost,
)
from framework.nn.functional.margin_loss import (
    cosine_embedding_loss,
    hinge_embedding_loss,
    margin_ranking_loss,
    multi_label_soft_margin_loss,
    soft_margin_loss,
    triplet_margin_loss,
)
from framework.nn.functional.maxout import maxout
from framework.nn.functional.rnnt import rnnt_loss
from framework.nn.functional.rrelu import rrelu
from framework.nn.functional.pooling3d import (
    adaptive_avg_pool3d,
    adaptive_max_pool3d,
    avg_pool3d,
    max_pool3d,
)
from framework.nn.functional.sequence import sequence_mask

# --- vision rearrangements, bilinear, local response norm (owner: API coverage, issue 24) -----
from framework.nn.functional.bilinear import bilinear
from framework.nn.functional.fractional_pool import fractional_max_pool2d, fractional_max_pool3d
from framework.nn.functional.local_response_norm import local_response_norm
from framework.nn.functional.lp_pool import lp_pool1d, lp_pool2d
from framework.nn.functional.max_unpool import max_unpool1d, max_unpool2d, max_unpool3d
from framework.nn.functional.rearrange import channel_shuffle, pixel_shuffle, pixel_unshuffle
from framework.ops.search import one_hot

# --- spatial transformers, extra activations and losses (owner: nn functional, issue 24) ------
from framework.nn.functional.grid_sample import affine_grid, grid_sample
from framework.nn.functional.extension import gather_tree, temporal_shift
from framework.nn.functional.gumbel_softmax import gumbel_softmax
from framework.nn.functional.margin_loss import (
    multi_label_margin_loss,
    multi_margin_loss,
    triplet_margin_with_distance_loss,
)
from framework.nn.functional.metric_loss import dice_loss, npair_loss
from framework.nn.functional.norm import rms_norm
from framework.nn.functional.sigmoid import logsigmoid, swiglu
from framework.ops.math import tanh_
from framework.nn.functional.hsigmoid_loss import hsigmoid_loss

# --- PartialFC sampling, margin softmax, packed attention (owner: API coverage, issue 24) -----
from framework.nn.functional.class_center_sample import class_center_sample
from framework.nn.functional.flash_attention_packed import flash_attn_qkvpacked
from framework.nn.functional.margin_cross_entropy import margin_cross_entropy
from framework.nn.functional.flashmask_attention import flashmask_attention
from framework.nn.functional.flash_attention_varlen import flash_attention_v3_varlen
