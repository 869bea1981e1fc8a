from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Status(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STATUS_UNSPECIFIED: _ClassVar[Status]
    STATUS_OK: _ClassVar[Status]
    STATUS_LIMIT: _ClassVar[Status]

class VerdictKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERDICT_KIND_UNSPECIFIED: _ClassVar[VerdictKind]
    VERDICT_KIND_BEST: _ClassVar[VerdictKind]
    VERDICT_KIND_MISTAKE: _ClassVar[VerdictKind]
    VERDICT_KIND_DECISIVE: _ClassVar[VerdictKind]
    VERDICT_KIND_NOT_JUDGED: _ClassVar[VerdictKind]
STATUS_UNSPECIFIED: Status
STATUS_OK: Status
STATUS_LIMIT: Status
VERDICT_KIND_UNSPECIFIED: VerdictKind
VERDICT_KIND_BEST: VerdictKind
VERDICT_KIND_MISTAKE: VerdictKind
VERDICT_KIND_DECISIVE: VerdictKind
VERDICT_KIND_NOT_JUDGED: VerdictKind

class Hand(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class Position(_message.Message):
    __slots__ = ("text_id", "number_id", "game", "hands", "first", "played", "contract")
    TEXT_ID_FIELD_NUMBER: _ClassVar[int]
    NUMBER_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    text_id: str
    number_id: int
    game: str
    hands: _containers.RepeatedCompositeFieldContainer[Hand]
    first: int
    played: _containers.RepeatedScalarFieldContainer[str]
    contract: _struct_pb2.Struct
    def __init__(self, text_id: _Optional[str] = ..., number_id: _Optional[int] = ..., game: _Optional[str] = ..., hands: _Optional[_Iterable[_Union[Hand, _Mapping]]] = ..., first: _Optional[int] = ..., played: _Optional[_Iterable[str]] = ..., contract: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class SolveRequest(_message.Message):
    __slots__ = ("position", "all_cards", "time_limit", "node_limit")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    ALL_CARDS_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_FIELD_NUMBER: _ClassVar[int]
    NODE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    position: Position
    all_cards: bool
    time_limit: float
    node_limit: int
    def __init__(self, position: _Optional[_Union[Position, _Mapping]] = ..., all_cards: _Optional[bool] = ..., time_limit: _Optional[float] = ..., node_limit: _Optional[int] = ...) -> None: ...

class CardValue(_message.Message):
    __slots__ = ("card", "value")
    CARD_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    card: str
    value: int
    def __init__(self, card: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...

class CardValues(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[CardValue]
    def __init__(self, cards: _Optional[_Iterable[_Union[CardValue, _Mapping]]] = ...) -> None: ...

class Bounds(_message.Message):
    __slots__ = ("low", "high")
    LOW_FIELD_NUMBER: _ClassVar[int]
    HIGH_FIELD_NUMBER: _ClassVar[int]
    low: int
    high: int
    def __init__(self, low: _Optional[int] = ..., high: _Optional[int] = ...) -> None: ...

class OutcomeField(_message.Message):
    __slots__ = ("name", "value")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    name: str
    value: _struct_pb2.Value
    def __init__(self, name: _Optional[str] = ..., value: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ...) -> None: ...

class Outcome(_message.Message):
    __slots__ = ("value", "scores", "fields")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    value: int
    scores: _containers.RepeatedScalarFieldContainer[int]
    fields: _containers.RepeatedCompositeFieldContainer[OutcomeField]
    def __init__(self, value: _Optional[int] = ..., scores: _Optional[_Iterable[int]] = ..., fields: _Optional[_Iterable[_Union[OutcomeField, _Mapping]]] = ...) -> None: ...

class SolveResult(_message.Message):
    __slots__ = ("text_id", "number_id", "status", "value", "to_play", "best", "cards", "line", "outcome", "nodes", "seconds", "bounds", "made")
    TEXT_ID_FIELD_NUMBER: _ClassVar[int]
    NUMBER_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    TO_PLAY_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    BOUNDS_FIELD_NUMBER: _ClassVar[int]
    MADE_FIELD_NUMBER: _ClassVar[int]
    text_id: str
    number_id: int
    status: Status
    value: int
    to_play: int
    best: _containers.RepeatedScalarFieldContainer[str]
    cards: CardValues
    line: _containers.RepeatedScalarFieldContainer[str]
    outcome: Outcome
    nodes: int
    seconds: float
    bounds: Bounds
    made: bool
    def __init__(self, text_id: _Optional[str] = ..., number_id: _Optional[int] = ..., status: _Optional[_Union[Status, str]] = ..., value: _Optional[int] = ..., to_play: _Optional[int] = ..., best: _Optional[_Iterable[str]] = ..., cards: _Optional[_Union[CardValues, _Mapping]] = ..., line: _Optional[_Iterable[str]] = ..., outcome: _Optional[_Union[Outcome, _Mapping]] = ..., nodes: _Optional[int] = ..., seconds: _Optional[float] = ..., bounds: _Optional[_Union[Bounds, _Mapping]] = ..., made: _Optional[bool] = ...) -> None: ...

class SolveBatchRequest(_message.Message):
    __slots__ = ("positions", "all_cards", "time_limit", "node_limit")
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    ALL_CARDS_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_FIELD_NUMBER: _ClassVar[int]
    NODE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    positions: _containers.RepeatedCompositeFieldContainer[Position]
    all_cards: bool
    time_limit: float
    node_limit: int
    def __init__(self, positions: _Optional[_Iterable[_Union[Position, _Mapping]]] = ..., all_cards: _Optional[bool] = ..., time_limit: _Optional[float] = ..., node_limit: _Optional[int] = ...) -> None: ...

class SolveBatchResult(_message.Message):
    __slots__ = ("index", "result")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    index: int
    result: SolveResult
    def __init__(self, index: _Optional[int] = ..., result: _Optional[_Union[SolveResult, _Mapping]] = ...) -> None: ...

class AnalyzeRequest(_message.Message):
    __slots__ = ("position", "start", "time_limit", "session")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    position: Position
    start: int
    time_limit: float
    session: str
    def __init__(self, position: _Optional[_Union[Position, _Mapping]] = ..., start: _Optional[int] = ..., time_limit: _Optional[float] = ..., session: _Optional[str] = ...) -> None: ...

class AnalysisUpdate(_message.Message):
    __slots__ = ("analysis", "final", "session", "resumed")
    ANALYSIS_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    SESSION_FIELD_NUMBER: _ClassVar[int]
    RESUMED_FIELD_NUMBER: _ClassVar[int]
    analysis: Analysis
    final: bool
    session: str
    resumed: bool
    def __init__(self, analysis: _Optional[_Union[Analysis, _Mapping]] = ..., final: _Optional[bool] = ..., session: _Optional[str] = ..., resumed: _Optional[bool] = ...) -> None: ...

class Verdict(_message.Message):
    __slots__ = ("kind", "low", "high")
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOW_FIELD_NUMBER: _ClassVar[int]
    HIGH_FIELD_NUMBER: _ClassVar[int]
    kind: VerdictKind
    low: int
    high: int
    def __init__(self, kind: _Optional[_Union[VerdictKind, str]] = ..., low: _Optional[int] = ..., high: _Optional[int] = ...) -> None: ...

class Play(_message.Message):
    __slots__ = ("index", "seat", "card", "value_before", "value_after", "cost", "best", "made_before", "made_after", "decisive", "bounds_before", "bounds_after", "cost_bounds", "verdict")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    VALUE_BEFORE_FIELD_NUMBER: _ClassVar[int]
    VALUE_AFTER_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    MADE_BEFORE_FIELD_NUMBER: _ClassVar[int]
    MADE_AFTER_FIELD_NUMBER: _ClassVar[int]
    DECISIVE_FIELD_NUMBER: _ClassVar[int]
    BOUNDS_BEFORE_FIELD_NUMBER: _ClassVar[int]
    BOUNDS_AFTER_FIELD_NUMBER: _ClassVar[int]
    COST_BOUNDS_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    index: int
    seat: int
    card: str
    value_before: int
    value_after: int
    cost: int
    best: _containers.RepeatedScalarFieldContainer[str]
    made_before: bool
    made_after: bool
    decisive: bool
    bounds_before: Bounds
    bounds_after: Bounds
    cost_bounds: Bounds
    verdict: Verdict
    def __init__(self, index: _Optional[int] = ..., seat: _Optional[int] = ..., card: _Optional[str] = ..., value_before: _Optional[int] = ..., value_after: _Optional[int] = ..., cost: _Optional[int] = ..., best: _Optional[_Iterable[str]] = ..., made_before: _Optional[bool] = ..., made_after: _Optional[bool] = ..., decisive: _Optional[bool] = ..., bounds_before: _Optional[_Union[Bounds, _Mapping]] = ..., bounds_after: _Optional[_Union[Bounds, _Mapping]] = ..., cost_bounds: _Optional[_Union[Bounds, _Mapping]] = ..., verdict: _Optional[_Union[Verdict, _Mapping]] = ...) -> None: ...

class SeatSummary(_message.Message):
    __slots__ = ("seat", "cards", "mistakes", "cost", "at_least", "not_judged")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    MISTAKES_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    AT_LEAST_FIELD_NUMBER: _ClassVar[int]
    NOT_JUDGED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: int
    mistakes: int
    cost: int
    at_least: int
    not_judged: int
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[int] = ..., mistakes: _Optional[int] = ..., cost: _Optional[int] = ..., at_least: _Optional[int] = ..., not_judged: _Optional[int] = ...) -> None: ...

class Analysis(_message.Message):
    __slots__ = ("text_id", "number_id", "status", "start_value", "plays", "seats", "outcome", "made", "start_bounds", "stopped_by")
    TEXT_ID_FIELD_NUMBER: _ClassVar[int]
    NUMBER_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    START_VALUE_FIELD_NUMBER: _ClassVar[int]
    PLAYS_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    MADE_FIELD_NUMBER: _ClassVar[int]
    START_BOUNDS_FIELD_NUMBER: _ClassVar[int]
    STOPPED_BY_FIELD_NUMBER: _ClassVar[int]
    text_id: str
    number_id: int
    status: Status
    start_value: int
    plays: _containers.RepeatedCompositeFieldContainer[Play]
    seats: _containers.RepeatedCompositeFieldContainer[SeatSummary]
    outcome: Outcome
    made: bool
    start_bounds: Bounds
    stopped_by: str
    def __init__(self, text_id: _Optional[str] = ..., number_id: _Optional[int] = ..., status: _Optional[_Union[Status, str]] = ..., start_value: _Optional[int] = ..., plays: _Optional[_Iterable[_Union[Play, _Mapping]]] = ..., seats: _Optional[_Iterable[_Union[SeatSummary, _Mapping]]] = ..., outcome: _Optional[_Union[Outcome, _Mapping]] = ..., made: _Optional[bool] = ..., start_bounds: _Optional[_Union[Bounds, _Mapping]] = ..., stopped_by: _Optional[str] = ...) -> None: ...

class AdviseRequest(_message.Message):
    __slots__ = ("position", "seat", "samples", "seed", "time_limit", "confidence", "node_limit", "budget")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    NODE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    position: Position
    seat: int
    samples: int
    seed: int
    time_limit: float
    confidence: float
    node_limit: int
    budget: bool
    def __init__(self, position: _Optional[_Union[Position, _Mapping]] = ..., seat: _Optional[int] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ..., time_limit: _Optional[float] = ..., confidence: _Optional[float] = ..., node_limit: _Optional[int] = ..., budget: _Optional[bool] = ...) -> None: ...

class CardAdvice(_message.Message):
    __slots__ = ("card", "mean", "se", "optimal", "made", "loss", "low", "high", "draws", "behind", "behind_se", "p_better", "equivalent", "exact", "behind_low", "behind_high", "made_low", "made_high")
    CARD_FIELD_NUMBER: _ClassVar[int]
    MEAN_FIELD_NUMBER: _ClassVar[int]
    SE_FIELD_NUMBER: _ClassVar[int]
    OPTIMAL_FIELD_NUMBER: _ClassVar[int]
    MADE_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    LOW_FIELD_NUMBER: _ClassVar[int]
    HIGH_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    BEHIND_FIELD_NUMBER: _ClassVar[int]
    BEHIND_SE_FIELD_NUMBER: _ClassVar[int]
    P_BETTER_FIELD_NUMBER: _ClassVar[int]
    EQUIVALENT_FIELD_NUMBER: _ClassVar[int]
    EXACT_FIELD_NUMBER: _ClassVar[int]
    BEHIND_LOW_FIELD_NUMBER: _ClassVar[int]
    BEHIND_HIGH_FIELD_NUMBER: _ClassVar[int]
    MADE_LOW_FIELD_NUMBER: _ClassVar[int]
    MADE_HIGH_FIELD_NUMBER: _ClassVar[int]
    card: str
    mean: float
    se: float
    optimal: float
    made: float
    loss: float
    low: float
    high: float
    draws: int
    behind: float
    behind_se: float
    p_better: float
    equivalent: _containers.RepeatedScalarFieldContainer[str]
    exact: int
    behind_low: float
    behind_high: float
    made_low: float
    made_high: float
    def __init__(self, card: _Optional[str] = ..., mean: _Optional[float] = ..., se: _Optional[float] = ..., optimal: _Optional[float] = ..., made: _Optional[float] = ..., loss: _Optional[float] = ..., low: _Optional[float] = ..., high: _Optional[float] = ..., draws: _Optional[int] = ..., behind: _Optional[float] = ..., behind_se: _Optional[float] = ..., p_better: _Optional[float] = ..., equivalent: _Optional[_Iterable[str]] = ..., exact: _Optional[int] = ..., behind_low: _Optional[float] = ..., behind_high: _Optional[float] = ..., made_low: _Optional[float] = ..., made_high: _Optional[float] = ...) -> None: ...

class AdviceBudget(_message.Message):
    __slots__ = ("time_limit", "node_limit", "draw_nodes")
    TIME_LIMIT_FIELD_NUMBER: _ClassVar[int]
    NODE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    DRAW_NODES_FIELD_NUMBER: _ClassVar[int]
    time_limit: float
    node_limit: int
    draw_nodes: int
    def __init__(self, time_limit: _Optional[float] = ..., node_limit: _Optional[int] = ..., draw_nodes: _Optional[int] = ...) -> None: ...

class Advice(_message.Message):
    __slots__ = ("text_id", "number_id", "status", "seat", "maximizing", "recommended", "best", "samples", "solved", "limited", "distinct", "deals", "seed", "value", "cards", "nodes", "seconds", "stopped_by", "certainty", "confidence", "decided", "budget", "capped", "value_low", "value_high")
    TEXT_ID_FIELD_NUMBER: _ClassVar[int]
    NUMBER_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MAXIMIZING_FIELD_NUMBER: _ClassVar[int]
    RECOMMENDED_FIELD_NUMBER: _ClassVar[int]
    BEST_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SOLVED_FIELD_NUMBER: _ClassVar[int]
    LIMITED_FIELD_NUMBER: _ClassVar[int]
    DISTINCT_FIELD_NUMBER: _ClassVar[int]
    DEALS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    STOPPED_BY_FIELD_NUMBER: _ClassVar[int]
    CERTAINTY_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    DECIDED_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    CAPPED_FIELD_NUMBER: _ClassVar[int]
    VALUE_LOW_FIELD_NUMBER: _ClassVar[int]
    VALUE_HIGH_FIELD_NUMBER: _ClassVar[int]
    text_id: str
    number_id: int
    status: Status
    seat: int
    maximizing: bool
    recommended: str
    best: _containers.RepeatedScalarFieldContainer[str]
    samples: int
    solved: int
    limited: int
    distinct: int
    deals: float
    seed: int
    value: float
    cards: _containers.RepeatedCompositeFieldContainer[CardAdvice]
    nodes: int
    seconds: float
    stopped_by: str
    certainty: float
    confidence: float
    decided: str
    budget: AdviceBudget
    capped: int
    value_low: float
    value_high: float
    def __init__(self, text_id: _Optional[str] = ..., number_id: _Optional[int] = ..., status: _Optional[_Union[Status, str]] = ..., seat: _Optional[int] = ..., maximizing: _Optional[bool] = ..., recommended: _Optional[str] = ..., best: _Optional[_Iterable[str]] = ..., samples: _Optional[int] = ..., solved: _Optional[int] = ..., limited: _Optional[int] = ..., distinct: _Optional[int] = ..., deals: _Optional[float] = ..., seed: _Optional[int] = ..., value: _Optional[float] = ..., cards: _Optional[_Iterable[_Union[CardAdvice, _Mapping]]] = ..., nodes: _Optional[int] = ..., seconds: _Optional[float] = ..., stopped_by: _Optional[str] = ..., certainty: _Optional[float] = ..., confidence: _Optional[float] = ..., decided: _Optional[str] = ..., budget: _Optional[_Union[AdviceBudget, _Mapping]] = ..., capped: _Optional[int] = ..., value_low: _Optional[float] = ..., value_high: _Optional[float] = ...) -> None: ...

class AdviseBatchRequest(_message.Message):
    __slots__ = ("positions", "samples", "seed", "time_limit", "confidence", "node_limit", "budget")
    POSITIONS_FIELD_NUMBER: _ClassVar[int]
    SAMPLES_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_FIELD_NUMBER: _ClassVar[int]
    CONFIDENCE_FIELD_NUMBER: _ClassVar[int]
    NODE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    BUDGET_FIELD_NUMBER: _ClassVar[int]
    positions: _containers.RepeatedCompositeFieldContainer[Position]
    samples: int
    seed: int
    time_limit: float
    confidence: float
    node_limit: int
    budget: bool
    def __init__(self, positions: _Optional[_Iterable[_Union[Position, _Mapping]]] = ..., samples: _Optional[int] = ..., seed: _Optional[int] = ..., time_limit: _Optional[float] = ..., confidence: _Optional[float] = ..., node_limit: _Optional[int] = ..., budget: _Optional[bool] = ...) -> None: ...

class AdviseBatchResult(_message.Message):
    __slots__ = ("index", "advice")
    INDEX_FIELD_NUMBER: _ClassVar[int]
    ADVICE_FIELD_NUMBER: _ClassVar[int]
    index: int
    advice: Advice
    def __init__(self, index: _Optional[int] = ..., advice: _Optional[_Union[Advice, _Mapping]] = ...) -> None: ...

class Deal(_message.Message):
    __slots__ = ("text_id", "number_id", "game", "hands", "first", "dog", "dealer", "open", "talon")
    TEXT_ID_FIELD_NUMBER: _ClassVar[int]
    NUMBER_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    DOG_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    TALON_FIELD_NUMBER: _ClassVar[int]
    text_id: str
    number_id: int
    game: str
    hands: _containers.RepeatedCompositeFieldContainer[Hand]
    first: int
    dog: _containers.RepeatedScalarFieldContainer[str]
    dealer: int
    open: _containers.RepeatedScalarFieldContainer[str]
    talon: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, text_id: _Optional[str] = ..., number_id: _Optional[int] = ..., game: _Optional[str] = ..., hands: _Optional[_Iterable[_Union[Hand, _Mapping]]] = ..., first: _Optional[int] = ..., dog: _Optional[_Iterable[str]] = ..., dealer: _Optional[int] = ..., open: _Optional[_Iterable[str]] = ..., talon: _Optional[_Iterable[str]] = ...) -> None: ...

class TableRequest(_message.Message):
    __slots__ = ("position", "deal", "time_limit", "contracts", "values")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    DEAL_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_FIELD_NUMBER: _ClassVar[int]
    CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    position: Position
    deal: Deal
    time_limit: float
    contracts: _containers.RepeatedScalarFieldContainer[str]
    values: bool
    def __init__(self, position: _Optional[_Union[Position, _Mapping]] = ..., deal: _Optional[_Union[Deal, _Mapping]] = ..., time_limit: _Optional[float] = ..., contracts: _Optional[_Iterable[str]] = ..., values: _Optional[bool] = ...) -> None: ...

class TableCell(_message.Message):
    __slots__ = ("seat", "contract", "called", "partner", "objective", "calls", "ecart", "made", "value", "bounds", "ecart_cards", "ecart_classes", "refuted")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    CALLED_FIELD_NUMBER: _ClassVar[int]
    PARTNER_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    CALLS_FIELD_NUMBER: _ClassVar[int]
    ECART_FIELD_NUMBER: _ClassVar[int]
    MADE_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    BOUNDS_FIELD_NUMBER: _ClassVar[int]
    ECART_CARDS_FIELD_NUMBER: _ClassVar[int]
    ECART_CLASSES_FIELD_NUMBER: _ClassVar[int]
    REFUTED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    contract: str
    called: str
    partner: int
    objective: str
    calls: _containers.RepeatedScalarFieldContainer[str]
    ecart: str
    made: bool
    value: int
    bounds: Bounds
    ecart_cards: _containers.RepeatedScalarFieldContainer[str]
    ecart_classes: int
    refuted: int
    def __init__(self, seat: _Optional[int] = ..., contract: _Optional[str] = ..., called: _Optional[str] = ..., partner: _Optional[int] = ..., objective: _Optional[str] = ..., calls: _Optional[_Iterable[str]] = ..., ecart: _Optional[str] = ..., made: _Optional[bool] = ..., value: _Optional[int] = ..., bounds: _Optional[_Union[Bounds, _Mapping]] = ..., ecart_cards: _Optional[_Iterable[str]] = ..., ecart_classes: _Optional[int] = ..., refuted: _Optional[int] = ...) -> None: ...

class TableMissing(_message.Message):
    __slots__ = ("contract", "seats", "field", "reason")
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    contract: str
    seats: _containers.RepeatedScalarFieldContainer[int]
    field: str
    reason: str
    def __init__(self, contract: _Optional[str] = ..., seats: _Optional[_Iterable[int]] = ..., field: _Optional[str] = ..., reason: _Optional[str] = ...) -> None: ...

class TablePar(_message.Message):
    __slots__ = ("cell", "proven", "announcements", "open", "unasked")
    CELL_FIELD_NUMBER: _ClassVar[int]
    PROVEN_FIELD_NUMBER: _ClassVar[int]
    ANNOUNCEMENTS_FIELD_NUMBER: _ClassVar[int]
    OPEN_FIELD_NUMBER: _ClassVar[int]
    UNASKED_FIELD_NUMBER: _ClassVar[int]
    cell: TableCell
    proven: bool
    announcements: _containers.RepeatedScalarFieldContainer[str]
    open: _containers.RepeatedCompositeFieldContainer[TableCell]
    unasked: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cell: _Optional[_Union[TableCell, _Mapping]] = ..., proven: _Optional[bool] = ..., announcements: _Optional[_Iterable[str]] = ..., open: _Optional[_Iterable[_Union[TableCell, _Mapping]]] = ..., unasked: _Optional[_Iterable[str]] = ...) -> None: ...

class TablePlayed(_message.Message):
    __slots__ = ("seat", "contract", "made", "bounds", "higher", "not_asked")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    MADE_FIELD_NUMBER: _ClassVar[int]
    BOUNDS_FIELD_NUMBER: _ClassVar[int]
    HIGHER_FIELD_NUMBER: _ClassVar[int]
    NOT_ASKED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    contract: str
    made: bool
    bounds: Bounds
    higher: _containers.RepeatedCompositeFieldContainer[TableCell]
    not_asked: bool
    def __init__(self, seat: _Optional[int] = ..., contract: _Optional[str] = ..., made: _Optional[bool] = ..., bounds: _Optional[_Union[Bounds, _Mapping]] = ..., higher: _Optional[_Iterable[_Union[TableCell, _Mapping]]] = ..., not_asked: _Optional[bool] = ...) -> None: ...

class ContractTable(_message.Message):
    __slots__ = ("text_id", "number_id", "status", "game", "first", "cells", "missing", "par", "played", "notes", "stopped_by", "nodes", "seconds", "counting")
    TEXT_ID_FIELD_NUMBER: _ClassVar[int]
    NUMBER_ID_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    CELLS_FIELD_NUMBER: _ClassVar[int]
    MISSING_FIELD_NUMBER: _ClassVar[int]
    PAR_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    NOTES_FIELD_NUMBER: _ClassVar[int]
    STOPPED_BY_FIELD_NUMBER: _ClassVar[int]
    NODES_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    COUNTING_FIELD_NUMBER: _ClassVar[int]
    text_id: str
    number_id: int
    status: Status
    game: str
    first: int
    cells: _containers.RepeatedCompositeFieldContainer[TableCell]
    missing: _containers.RepeatedCompositeFieldContainer[TableMissing]
    par: TablePar
    played: TablePlayed
    notes: _containers.RepeatedScalarFieldContainer[str]
    stopped_by: str
    nodes: int
    seconds: float
    counting: str
    def __init__(self, text_id: _Optional[str] = ..., number_id: _Optional[int] = ..., status: _Optional[_Union[Status, str]] = ..., game: _Optional[str] = ..., first: _Optional[int] = ..., cells: _Optional[_Iterable[_Union[TableCell, _Mapping]]] = ..., missing: _Optional[_Iterable[_Union[TableMissing, _Mapping]]] = ..., par: _Optional[_Union[TablePar, _Mapping]] = ..., played: _Optional[_Union[TablePlayed, _Mapping]] = ..., notes: _Optional[_Iterable[str]] = ..., stopped_by: _Optional[str] = ..., nodes: _Optional[int] = ..., seconds: _Optional[float] = ..., counting: _Optional[str] = ...) -> None: ...

class TableUpdate(_message.Message):
    __slots__ = ("cells", "table", "final")
    CELLS_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    cells: _containers.RepeatedCompositeFieldContainer[TableCell]
    table: ContractTable
    final: bool
    def __init__(self, cells: _Optional[_Iterable[_Union[TableCell, _Mapping]]] = ..., table: _Optional[_Union[ContractTable, _Mapping]] = ..., final: _Optional[bool] = ...) -> None: ...
