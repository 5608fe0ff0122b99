"""Neural-network layers (`framework.nn`), as in `paddle.nn`."""

# --- layers, containers, activations, losses, initializers (owner: nn layers) ------------------
from framework.nn import functional, initializer

# Paddle keeps `paddle.nn.loss` as an attribute naming `paddle.nn.layer.loss` (older scripts and
# its own tests use `paddle.nn.loss.CrossEntropyLoss`); like Paddle's, it is not importable as
# `import framework.nn.loss`.
from framework.nn.layer import loss
from framework.nn.layer.activation import (
    CELU,
    ELU,
    GELU,
    GLU,
    SELU,
    Hardshrink,
    Hardsigmoid,
    Hardswish,
    Hardtanh,
    LeakyReLU,
    LogSigmoid,
    LogSoftmax,
    Maxout,
    Mish,
    PReLU,
    ReLU,
    ReLU6,
    RReLU,
    Sigmoid,
    SiLU,
    Silu,
    Softmax,
    Softmax2D,
    Softplus,
    Softshrink,
    Softsign,
    Swish,
    Tanh,
    Tanhshrink,
    ThresholdedReLU,
)
from framework.nn.layer.common import (
    Embedding,
    Flatten,
    Fold,
    Identity,
    Linear,
    Pad1D,
    Pad2D,
    Unflatten,
    Unfold,
    Upsample,
    UpsamplingBilinear2D,
    UpsamplingNearest2D,
    ZeroPad2D,
)
from framework.nn.layer.container import (
    LayerDict,
    LayerList,
    ParameterDict,
    ParameterList,
    Sequential,
)
from framework.nn.layer.conv import Conv1D, Conv1DTranspose, Conv2D, Conv2DTranspose
from framework.nn.layer.conv3d import Conv3D, Conv3DTranspose
from framework.nn.layer.ctc_loss import CTCLoss
from framework.nn.layer.adaptive_log_softmax import AdaptiveLogSoftmaxWithLoss
from framework.nn.layer.bilinear import Bilinear
from framework.nn.layer.dropout import (
    AlphaDropout,
    Dropout,
    Dropout2D,
    Dropout3D,
    FeatureAlphaDropout,
)
from framework.nn.layer.fractional_pool import FractionalMaxPool2D, FractionalMaxPool3D
from framework.nn.layer.hsigmoid_loss import HSigmoidLoss
from framework.nn.layer.layers import Layer
from framework.nn.layer.loss import (
    BCELoss,
    BCEWithLogitsLoss,
    CrossEntropyLoss,
    KLDivLoss,
    L1Loss,
    MSELoss,
    NLLLoss,
    SmoothL1Loss,
)
from framework.nn.layer.margin_loss import (
    CosineEmbeddingLoss,
    CosineSimilarity,
    GaussianNLLLoss,
    HingeEmbeddingLoss,
    MarginRankingLoss,
    MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss,
    MultiMarginLoss,
    PairwiseDistance,
    PoissonNLLLoss,
    SoftMarginLoss,
    TripletMarginLoss,
    TripletMarginWithDistanceLoss,
)
from framework.nn.layer.norm import (
    BatchNorm,
    BatchNorm1D,
    BatchNorm2D,
    GroupNorm,
    InstanceNorm1D,
    InstanceNorm2D,
    LayerNorm,
)
from framework.nn.layer.lp_pool import LPPool1D, LPPool2D
from framework.nn.layer.max_unpool import MaxUnPool1D, MaxUnPool2D, MaxUnPool3D
from framework.nn.layer.norm3d import BatchNorm3D, InstanceNorm3D
from framework.nn.layer.padding3d import Pad3D, ZeroPad3D
from framework.nn.layer.padding_modes import (
    CircularPad1D,
    CircularPad2D,
    CircularPad3D,
    ConstantPad1D,
    ConstantPad2D,
    ConstantPad3D,
    ReflectionPad1D,
    ReflectionPad2D,
    ReflectionPad3D,
    ReplicationPad1D,
    ReplicationPad2D,
    ReplicationPad3D,
    ZeroPad1D,
)
from framework.nn.layer.pooling import (
    AdaptiveAvgPool1D,
    AdaptiveAvgPool2D,
    AdaptiveMaxPool1D,
    AdaptiveMaxPool2D,
    AvgPool1D,
    AvgPool2D,
    MaxPool1D,
    MaxPool2D,
)
from framework.nn.layer.pooling3d import (
    AdaptiveAvgPool3D,
    AdaptiveMaxPool3D,
    AvgPool3D,
    MaxPool3D,
)
from framework.nn.layer.rnn import GRU, LSTM, RNN, BiRNN, RNNBase, SimpleRNN
from framework.nn.layer.rnn_cells import GRUCell, LSTMCell, RNNCellBase, SimpleRNNCell
from framework.nn.layer.rnnt_loss import RNNTLoss
from framework.nn.layer.spectral_norm import LocalResponseNorm, SpectralNorm
from framework.nn.layer.sync_batch_norm import SyncBatchNorm
from framework.nn.layer.transformer import (
    MultiHeadAttention,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from framework.nn.layer.transformer_decoder import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
)
from framework.nn.layer.vision import ChannelShuffle, PixelShuffle, PixelUnshuffle
from framework.nn.param_attr import ParamAttr

# --- gradient clipping (owner: optimizers) -----------------------------------------------------
from framework.nn.clip import ClipGradByGlobalNorm, ClipGradByNorm, ClipGradByValue

# --- beam search decoding (owner: API coverage, issue 24) ---------------------------------------
from framework.nn.decode import BeamSearchDecoder, dynamic_decode

# --- PyTorch-style names Paddle 3.x exports as aliases (owner: API coverage, issue 24) ---------
from framework.core.tensor import Parameter  # paddle.nn.Parameter is the parameter class

AdaptiveAvgPool1d = AdaptiveAvgPool1D
AdaptiveAvgPool2d = AdaptiveAvgPool2D
AdaptiveAvgPool3d = AdaptiveAvgPool3D
AdaptiveMaxPool1d = AdaptiveMaxPool1D
AdaptiveMaxPool2d = AdaptiveMaxPool2D
AdaptiveMaxPool3d = AdaptiveMaxPool3D
CircularPad1d = CircularPad1D
CircularPad2d = CircularPad2D
CircularPad3d = CircularPad3D
ConstantPad1d = ConstantPad1D
ConstantPad2d = ConstantPad2D
ConstantPad3d = ConstantPad3D
Conv1d = Conv1D
Conv2d = Conv2D
Conv3d = Conv3D
HuberLoss = SmoothL1Loss
LPPool1d = LPPool1D
LPPool2d = LPPool2D
MaxUnpool1d = MaxUnPool1D
MaxUnpool2d = MaxUnPool2D
MaxUnpool3d = MaxUnPool3D
Module = Layer
ModuleDict = LayerDict
ModuleList = LayerList
ReflectionPad1d = ReflectionPad1D
ReflectionPad2d = ReflectionPad2D
ReflectionPad3d = ReflectionPad3D
ReplicationPad1d = ReplicationPad1D
ReplicationPad2d = ReplicationPad2D
ReplicationPad3d = ReplicationPad3D
UpsamplingBilinear2d = UpsamplingBilinear2D
UpsamplingNearest2d = UpsamplingNearest2D
ZeroPad1d = ZeroPad1D
ZeroPad2d = ZeroPad2D
ZeroPad3d = ZeroPad3D
