"""A learned player's weights file: a small versioned ``.npz`` with the rules, the feature set and the command that
made it, read strictly (plain Python: numpy, no numba).

The arrays of a file (:func:`save` writes them, :func:`load` checks every one):

- ``format`` (:data:`FORMAT`), ``layout`` (:data:`.learned.LAYOUT`), ``features`` (:data:`.learned.FEATURES`): a file
  of another format, layout or feature set is refused, never read as this one;
- ``W``: ``float64 (N_D + 1, N_O)``, the model's weights (:mod:`.learned`), every one finite;
- ``exchange``: the ``avoid`` spec whose declaration the player keeps, and its exchange where the file carries no
  exchange model;
- ``WX``, ``exchange_features`` (optional: a file of rules with a talon learned with the exchange):
  ``float64 (N_XD + 1, N_XO)``, the exchange model's weights, every one finite, and its feature set
  (:data:`.learned.EXCHANGE_FEATURES`; a file of another is refused);
- ``WD``, ``declaration_features`` (optional: a file of rules with the espagnolette learned with the declaration):
  ``float64 (N_DD + 1, N_DO)``, the declaration model's weights, every one finite (the ``win_all`` column zero
  where the rules ask no goal), and its feature set (:data:`.learned.DECLARATION_FEATURES`); a file without them
  keeps the ``avoid`` spec's declaration and goal;
- ``rules``, ``rules_params``: the rule set the weights were learned under (JSON); a table of other rules refuses
  them (:func:`check_rules`);
- ``command``, ``provenance``: how they were made (the command line; seeds, sizes, fit, as JSON).

A spec names a file as ``learned:weights=NAME`` (a file shipped in the package, :data:`SHIPPED_DIR`) or
``learned:weights=PATH``. Every problem is one :class:`WeightsError` sentence naming the file and the fix.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .learned import (
    DECLARATION_FEATURES,
    DO_WIN_ALL,
    EXCHANGE_FEATURES,
    FEATURES,
    LAYOUT,
    N_D,
    N_DD,
    N_DO,
    N_DWEIGHTS,
    N_EXCHANGE,
    N_O,
    N_XD,
    N_XO,
    N_XWEIGHTS,
)

FORMAT = "reversis_sim learned weights"
SHIPPED_DIR = Path(__file__).with_name("weights_data")
"""Where the shipped weights files are (``<name>.npz``)."""
IGNORED_RULES = ("match_deals", "start_chips", "target_total")
"""Rule parameters that do not change how a deal is played: weights learned under one value play under another."""


class WeightsError(ValueError):
    """A weights file that cannot be played: missing, truncated, of another version, rules or feature set, or with
    weights that are not numbers."""


@dataclass(frozen=True)
class Weights:
    """A weights file, checked: where it is, ``W``, the exchange's ``avoid`` vector, what it records, and the
    exchange model's weights ``WX`` (None: the ``avoid`` setting exchanges), and the declaration model's ``WD``
    (None: the ``avoid`` setting declares)."""

    path: Path
    W: np.ndarray
    exchange: str
    exchange_vector: tuple[float, ...]
    rules: str
    rules_params: dict
    command: str
    provenance: dict
    WX: np.ndarray | None = None
    WD: np.ndarray | None = None


def resolve(name: str) -> Path:
    """The file a spec's ``weights=`` names: a shipped name, or a path."""
    name = name.strip()
    if name and "/" not in name and not name.endswith(".npz"):
        return SHIPPED_DIR / f"{name}.npz"
    return Path(name).expanduser()


_CACHE: dict[tuple, Weights] = {}


def load(name: str) -> Weights:
    """The checked weights file ``name`` (:func:`resolve`), cached while the file is unchanged."""
    path = resolve(name)
    try:
        st = path.stat()
    except OSError:
        shipped = ", ".join(sorted(p.stem for p in SHIPPED_DIR.glob("*.npz"))) or "none"
        raise WeightsError(f"weights file {path} does not exist; give the path of a file written by reversis-sim "
                           f"learn, or a shipped name ({shipped})") from None
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    if key not in _CACHE:
        _CACHE[key] = _read(path)
    return _CACHE[key]


def _read(path: Path) -> Weights:
    bad = f"weights file {path}"
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as e:
        raise WeightsError(f"{bad} cannot be read ({type(e).__name__}): it is truncated or not a weights file; "
                           f"write it again with reversis-sim learn") from None
    need = ("format", "layout", "features", "W", "exchange", "rules", "rules_params", "command", "provenance")
    missing = [k for k in need if k not in arrays]
    if missing or str(arrays["format"]) != FORMAT:
        raise WeightsError(f"{bad} is not a reversis_sim weights file (missing {', '.join(missing) or 'its format'})"
                           f"; write it with reversis-sim learn")
    if int(arrays["layout"]) != LAYOUT:
        raise WeightsError(f"{bad} is of layout version {int(arrays['layout'])}, and this reversis_sim plays "
                           f"version {LAYOUT}; learn the weights again with this version")
    if str(arrays["features"]) != FEATURES:
        raise WeightsError(f"{bad} was learned on another feature set than this reversis_sim computes; learn the "
                           f"weights again with this version")
    W = _model(bad, arrays, "W", (N_D + 1, N_O), "")
    WX = _optional_model(bad, arrays, "WX", "exchange_features", EXCHANGE_FEATURES, (N_XD + 1, N_XO), "an exchange")
    WD = _optional_model(bad, arrays, "WD", "declaration_features", DECLARATION_FEATURES, (N_DD + 1, N_DO),
                         "a declaration")
    from .registry import PolicySpecError, parse_spec  # the registry imports this module

    exchange = str(arrays["exchange"])
    try:
        spec = parse_spec(exchange)
    except PolicySpecError as e:
        raise WeightsError(f"{bad} names an exchange policy that is not valid here: {e}") from None
    if spec.family != "avoid" or len(spec.values()) != N_EXCHANGE:
        raise WeightsError(f"{bad} names the exchange policy {exchange!r}; a learned player keeps the exchange of an "
                           f"avoid setting")
    try:
        rules_params, provenance = json.loads(str(arrays["rules_params"])), json.loads(str(arrays["provenance"]))
    except ValueError:
        raise WeightsError(f"{bad} records its rules or provenance in a form that cannot be read; learn it "
                           f"again") from None
    if WD is not None and not rules_params.get("espagnolette_goal_choice") and np.any(WD[:, DO_WIN_ALL] != 0):
        raise WeightsError(f"{bad} weighs the goal win_all in its declaration model, and its rules "
                           f"{str(arrays['rules'])} ask the declarer no goal; learn the weights again")
    return Weights(path, W, exchange, spec.values(), str(arrays["rules"]), rules_params, str(arrays["command"]),
                   provenance, WX, WD)


def _model(bad: str, arrays: dict, key: str, shape: tuple[int, int], what: str) -> np.ndarray:
    """The weights ``arrays[key]`` of a model (``what``: its name before "weights", "" for the card model),
    refused unless of ``shape`` and every one finite."""
    M = np.asarray(arrays.get(key, np.zeros(0)), dtype=np.float64)
    name = f"{what} weights" if what else "weights"
    if M.shape != shape:
        raise WeightsError(f"{bad} holds {name} of shape {M.shape}, not {shape}; learn them again")
    if not np.all(np.isfinite(M)):
        raise WeightsError(f"{bad} holds {int(np.sum(~np.isfinite(M)))} {name} that are not finite numbers (NaN or "
                           f"infinite); learn them again")
    return M


def _optional_model(bad: str, arrays: dict, key: str, features_key: str, features: str, shape: tuple[int, int],
                    model: str) -> np.ndarray | None:
    """An optional model's weights (``model``: "an exchange", "a declaration"): None where the file carries none,
    refused where its feature set is not the one this version computes (:func:`_model` checks the rest)."""
    if key not in arrays and features_key not in arrays:
        return None
    if str(arrays.get(features_key, "")) != features:
        raise WeightsError(f"{bad} carries {model} model of another feature set than this reversis_sim computes; "
                           f"learn the weights again with this version")
    return _model(bad, arrays, key, shape, model.split(" ", 1)[1])


def vector(w: Weights) -> tuple[float, ...]:
    """The kernels' parameter vector of a learned seat (layout: :mod:`.learned`)."""
    x = (1.0,) + tuple(float(v) for v in w.WX.ravel()) if w.WX is not None else (0.0,) * (1 + N_XWEIGHTS)
    d = (1.0,) + tuple(float(v) for v in w.WD.ravel()) if w.WD is not None else (0.0,) * (1 + N_DWEIGHTS)
    own = (float(LAYOUT), float(N_O), float(N_D)) + tuple(w.exchange_vector)
    return own + tuple(float(v) for v in w.W.ravel()) + x + d


def rules_differ(w: Weights, rules_params: dict) -> list[str]:
    """The rule parameters (other than :data:`IGNORED_RULES`) whose values differ between ``w`` and a rule set."""
    keys = (set(w.rules_params) | set(rules_params)) - set(IGNORED_RULES)
    return sorted(k for k in keys if w.rules_params.get(k) != rules_params.get(k))


def check_rules(w: Weights, rules) -> None:
    """Refuse to play ``w`` under ``rules`` (a :class:`~reversis_sim.rules.Rules`) when it was learned under
    others: one sentence naming the differences."""
    differ = rules_differ(w, rules.to_params())
    if differ:
        shown = ", ".join(differ[:4]) + (" ..." if len(differ) > 4 else "")
        raise WeightsError(f"weights file {w.path} was learned under the rules {w.rules}, which differ from the "
                           f"table's {rules.name} in {shown}; learn weights for these rules (reversis-sim learn "
                           f"--rules {rules.name})")


def save(path: Path, W: np.ndarray, *, exchange: str, rules, command: str, provenance: dict,
         WX: np.ndarray | None = None, WD: np.ndarray | None = None) -> None:
    """Write a weights file (to a temporary name, then renamed: a file is whole or absent); ``WX``, ``WD``: the
    exchange and declaration models' weights, if they were learned."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp.npz")
    extra = {} if WX is None else {"WX": np.asarray(WX, np.float64), "exchange_features": np.array(EXCHANGE_FEATURES)}
    if WD is not None:
        extra |= {"WD": np.asarray(WD, np.float64), "declaration_features": np.array(DECLARATION_FEATURES)}
    np.savez(tmp, **extra, format=np.array(FORMAT), layout=np.array(LAYOUT), features=np.array(FEATURES),
             W=np.asarray(W, np.float64), exchange=np.array(exchange), rules=np.array(rules.name),
             rules_params=np.array(json.dumps(rules.to_params(), sort_keys=True)), command=np.array(command),
             provenance=np.array(json.dumps(provenance, sort_keys=True)))
    tmp.replace(path)
