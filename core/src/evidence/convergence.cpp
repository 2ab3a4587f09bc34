#include "traincost/evidence/convergence.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "traincost/base/detmath.hpp"
#include "traincost/base/format.hpp"
#include "traincost/base/random.hpp"

namespace traincost {

namespace {

// Curves longer than this are averaged in this many consecutive groups after their spikes are left
// out (the fit and its bootstrap then cost the same for a 2,000-point log as for a 200-point one).
constexpr size_t kMaxFitPoints = 200;
constexpr int kAlphaGrid = 40;       // log-spaced from kAlphaMin to kAlphaMax
constexpr int kAlphaRefine = 48;     // golden-section steps between the best grid point's neighbours
constexpr int kBootstrapRefine = 24; // for a resample: α to about 1e-5 of the grid's spacing
constexpr double kAlphaMin = 0.02, kAlphaMax = 3.0;
constexpr double kLossResolution = 1e-4;  // below any log's printed precision: the floor of a spike's scale

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The points a fit sees: log(D / scale) and the loss.
struct Series {
  std::vector<double> log_x, y;
};

struct LinearFit {
  double E = 0, A = 0, sse = std::numeric_limits<double>::infinity();
};

// E and A for a fixed α, by least squares on u = x^-α; E held at 0 or above (a loss has no
// negative floor) and A above 0 (a curve that does not fall has no tokens-to-loss).
LinearFit fit_with(const Series& s, const std::vector<double>& u) {
  const size_t n = s.y.size();
  double su = 0, sy = 0;
  for (size_t i = 0; i < n; ++i) {
    su += u[i];
    sy += s.y[i];
  }
  const double mu = su / static_cast<double>(n), my = sy / static_cast<double>(n);
  double suu = 0, suy = 0;
  for (size_t i = 0; i < n; ++i) {
    suu += (u[i] - mu) * (u[i] - mu);
    suy += (u[i] - mu) * (s.y[i] - my);
  }
  LinearFit f;
  if (!(suu > 0)) return f;
  f.A = suy / suu;
  f.E = my - f.A * mu;
  if (f.E < 0) {  // through the origin instead
    double uu = 0, uy = 0;
    for (size_t i = 0; i < n; ++i) {
      uu += u[i] * u[i];
      uy += u[i] * s.y[i];
    }
    f.E = 0;
    f.A = uy / uu;
  }
  if (!(f.A > 0)) return LinearFit{};
  f.sse = 0;
  for (size_t i = 0; i < n; ++i) {
    const double r = s.y[i] - f.E - f.A * u[i];
    f.sse += r * r;
  }
  return f;
}

LinearFit fit_at(const Series& s, double alpha, std::vector<double>& u) {
  u.resize(s.log_x.size());
  for (size_t i = 0; i < u.size(); ++i) u[i] = det::exp(-alpha * s.log_x[i]);
  return fit_with(s, u);
}

// u = x^-α at each grid α, for one curve's tokens (the bootstrap refits the same tokens 400 times).
using GridU = std::vector<std::vector<double>>;
double grid_alpha(int k) {
  static const double step = det::log(kAlphaMax / kAlphaMin) / (kAlphaGrid - 1);
  return kAlphaMin * det::exp(step * k);
}
GridU grid_u_of(const Series& s) {
  GridU g(kAlphaGrid);
  for (int k = 0; k < kAlphaGrid; ++k) fit_at(s, grid_alpha(k), g[static_cast<size_t>(k)]);
  return g;
}

struct Fitted {
  double E = 0, A = 0, alpha = 0, sse = std::numeric_limits<double>::infinity();
  bool ok() const { return std::isfinite(sse); }
};

// The least-squares α: the best of a log-spaced grid (its u given, or worked out), then
// golden-section search between its neighbours in `refine` steps.
Fitted fit_series(const Series& s, const GridU* grid = nullptr, int refine = kAlphaRefine) {
  std::vector<double> u;
  Fitted best;
  int k_best = -1;
  auto alpha_at = [](int k) { return grid_alpha(k); };
  for (int k = 0; k < kAlphaGrid; ++k) {
    const double a = alpha_at(k);
    const LinearFit f = grid ? fit_with(s, (*grid)[static_cast<size_t>(k)]) : fit_at(s, a, u);
    if (f.sse < best.sse) {
      best = {f.E, f.A, a, f.sse};
      k_best = k;
    }
  }
  if (k_best < 0) return best;
  double lo = alpha_at(std::max(0, k_best - 1)), hi = alpha_at(std::min(kAlphaGrid - 1, k_best + 1));
  const double g = (std::sqrt(5.0) - 1) / 2;
  double a1 = hi - g * (hi - lo), a2 = lo + g * (hi - lo);
  LinearFit f1 = fit_at(s, a1, u), f2 = fit_at(s, a2, u);
  for (int i = 0; i < refine; ++i) {
    if (f1.sse <= f2.sse) {
      hi = a2;
      a2 = a1;
      f2 = f1;
      a1 = hi - g * (hi - lo);
      f1 = fit_at(s, a1, u);
    } else {
      lo = a1;
      a1 = a2;
      f1 = f2;
      a2 = lo + g * (hi - lo);
      f2 = fit_at(s, a2, u);
    }
  }
  const LinearFit& f = f1.sse <= f2.sse ? f1 : f2;
  if (f.sse <= best.sse) best = {f.E, f.A, f1.sse <= f2.sse ? a1 : a2, f.sse};
  return best;
}

double predict(const Fitted& f, double log_x) { return f.E + f.A * det::exp(-f.alpha * log_x); }

Series series_of(const std::vector<LossPoint>& points, double scale) {
  Series s;
  for (const LossPoint& p : points) {
    s.log_x.push_back(det::log(p.tokens / scale));
    s.y.push_back(p.loss);
  }
  return s;
}

// A fitted curve with what the bootstrap needs: the series, its fitted values and residuals.
struct CurveWork {
  LossCurveFit fit;
  Series series;
  GridU grid;
  std::vector<double> fitted, residuals;
};

CurveWork fit_curve(const std::vector<LossPoint>& curve, double scale) {
  CurveWork w;
  LossCurveFit& out = w.fit;
  out.scale = scale;
  if (curve.empty()) return w;
  const double start = kConvergenceWarmupShare * curve.back().tokens;
  std::vector<LossPoint> kept;
  for (const LossPoint& p : curve)
    if (p.tokens > 0 && p.tokens >= start) kept.push_back(p);
  out.points = static_cast<int>(kept.size());
  if (kept.size() < static_cast<size_t>(kConvergenceMinPoints)) return w;
  // Spikes: the worst point while it is more than 5 robust standard deviations of the others off.
  const size_t max_drops = std::max<size_t>(1, kept.size() / 10);
  Fitted f = fit_series(series_of(kept, scale));
  while (f.ok() && out.spikes.size() < max_drops && kept.size() > static_cast<size_t>(kConvergenceMinPoints)) {
    std::vector<double> r(kept.size());
    size_t worst = 0;
    for (size_t i = 0; i < kept.size(); ++i) {
      r[i] = kept[i].loss - predict(f, det::log(kept[i].tokens / scale));
      if (std::fabs(r[i]) > std::fabs(r[worst])) worst = i;
    }
    std::vector<double> others;
    for (size_t i = 0; i < r.size(); ++i)
      if (i != worst) others.push_back(r[i]);
    const double centre = median(others);
    for (double& x : others) x = std::fabs(x - centre);
    const double sigma = std::max(1.4826 * median(others), kLossResolution);
    if (std::fabs(r[worst] - centre) <= kConvergenceSpikeSigmas * sigma) break;
    out.spikes.push_back(kept[worst]);
    kept.erase(kept.begin() + static_cast<long>(worst));
    f = fit_series(series_of(kept, scale));
  }
  std::sort(out.spikes.begin(), out.spikes.end(), [](const LossPoint& a, const LossPoint& b) { return a.tokens < b.tokens; });
  // A long curve: averaged in kMaxFitPoints consecutive groups.
  if (kept.size() > kMaxFitPoints) {
    std::vector<LossPoint> grouped;
    for (size_t g = 0; g < kMaxFitPoints; ++g) {
      const size_t a = g * kept.size() / kMaxFitPoints, b = (g + 1) * kept.size() / kMaxFitPoints;
      LossPoint m;
      for (size_t i = a; i < b; ++i) {
        m.tokens += kept[i].tokens / static_cast<double>(b - a);
        m.loss += kept[i].loss / static_cast<double>(b - a);
      }
      grouped.push_back(m);
    }
    kept = grouped;
    f = fit_series(series_of(kept, scale));
  }
  out.points = static_cast<int>(kept.size());
  if (!f.ok()) return w;
  w.series = series_of(kept, scale);
  w.grid = grid_u_of(w.series);
  out.ok = true;
  out.E = f.E;
  out.A = f.A;
  out.alpha = f.alpha;
  out.first_tokens = kept.front().tokens;
  out.last_tokens = kept.back().tokens;
  double ss = 0;
  for (size_t i = 0; i < kept.size(); ++i) {
    w.fitted.push_back(predict(f, w.series.log_x[i]));
    w.residuals.push_back(w.series.y[i] - w.fitted.back());
    ss += w.residuals.back() * w.residuals.back();
  }
  out.residual_sd = std::sqrt(ss / static_cast<double>(kept.size()));
  return w;
}

double percentile(const std::vector<double>& sorted, double p) {
  const double at = p * static_cast<double>(sorted.size() - 1);
  const size_t i = static_cast<size_t>(at);
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (at - static_cast<double>(i)) * (sorted[i + 1] - sorted[i]);
}

std::string tokens_text(double t) { return fmt::rounded(t); }

}  // namespace

double LossCurveFit::loss_at(double tokens) const { return E + A * det::pow(tokens / scale, -alpha); }

double LossCurveFit::tokens_to(double loss) const {
  if (!(loss > E) || !(A > 0) || !(alpha > 0)) return 0;
  return scale * det::pow(A / (loss - E), 1 / alpha);
}

LossCurveFit fit_loss_curve(const std::vector<LossPoint>& curve, double scale) { return fit_curve(curve, scale).fit; }

namespace {

ConvergenceEstimate estimate(const std::vector<LossPoint>& candidate, const std::vector<LossPoint>& reference) {
  ConvergenceEstimate e;
  if (candidate.empty() || reference.empty()) {
    e.reason = candidate.empty() && reference.empty() ? "no loss curves" : candidate.empty() ? "no loss curve of the candidate" : "no reference loss curve";
    return e;
  }
  // One scale for both curves (the reference's last tokens), so the fits' numbers stay near 1.
  const double scale = reference.back().tokens > 0 ? reference.back().tokens : 1;
  const CurveWork c = fit_curve(candidate, scale), r = fit_curve(reference, scale);
  e.candidate = c.fit;
  e.reference = r.fit;
  auto short_text = [](const char* who, const LossCurveFit& f) {
    return std::string(who) + "'s curve has " + std::to_string(f.points) + " points after its first 10% of tokens" +
           (f.spikes.empty() ? "" : " and its spikes") + " (at least " + std::to_string(kConvergenceMinPoints) + " are needed)";
  };
  if (!r.fit.ok || !c.fit.ok) {
    e.state = ConvergenceState::TooShort;
    e.reason = !r.fit.ok && r.fit.points < kConvergenceMinPoints ? short_text("the reference", r.fit)
               : !c.fit.ok && c.fit.points < kConvergenceMinPoints ? short_text("the candidate", c.fit)
                                                                   : "a curve whose loss does not fall cannot be fitted";
    if (e.reason.rfind("a curve", 0) == 0) e.state = ConvergenceState::NonOverlapping;
    return e;
  }
  e.reference_tokens = r.fit.last_tokens;
  e.target_loss = r.fit.loss_at(e.reference_tokens);
  const double reach = c.fit.tokens_to(e.target_loss);

  // Residual bootstrap: both curves' residuals resampled onto their fits and refitted. It runs
  // before the curves' range is judged, so that noise is called noise: a noisy curve's fit can
  // land past its end or level off above the target by chance, which is not a short curve.
  e.seed = kConvergenceSeed;
  e.resamples = kConvergenceResamples;
  Random rng(kConvergenceSeed);
  std::vector<double> ratios;
  auto resample = [&](const CurveWork& w) {
    Series s = w.series;
    const size_t n = w.residuals.size();
    for (size_t i = 0; i < n; ++i) s.y[i] = w.fitted[i] + w.residuals[std::min(n - 1, static_cast<size_t>(rng.uniform() * static_cast<double>(n)))];
    return fit_series(s, &w.grid, kBootstrapRefine);
  };
  for (int b = 0; b < kConvergenceResamples; ++b) {
    const Fitted fr = resample(r), fc = resample(c);
    LossCurveFit cr = r.fit, cc = c.fit;
    cr.E = fr.E, cr.A = fr.A, cr.alpha = fr.alpha;
    cc.E = fc.E, cc.A = fc.A, cc.alpha = fc.alpha;
    const double d = fr.ok() && fc.ok() ? cc.tokens_to(cr.loss_at(e.reference_tokens)) : 0;
    if (d <= 0) ++e.failed_resamples;
    else ratios.push_back(d / e.reference_tokens);
  }
  std::sort(ratios.begin(), ratios.end());
  const bool many_fail = e.failed_resamples * 10 > e.resamples;
  auto too_noisy = [&](const std::string& why) {
    e.state = ConvergenceState::TooNoisy;
    e.reason = why + ": too noisy to tell (a longer or smoother run narrows it)";
    return e;
  };
  if (reach <= 0) {
    // The fit levels off above the target: the curves' noise, when a tenth of the resampled fits get there.
    if (ratios.size() * 10 > static_cast<size_t>(e.resamples))
      return too_noisy("the candidate's fit levels off above the reference's final loss, but " + std::to_string(ratios.size()) + " of " +
                       std::to_string(e.resamples) + " resampled fits reach it");
    e.state = ConvergenceState::NonOverlapping;
    e.reason = "the candidate's curve levels off above the reference's final loss of " + fmt::number(e.target_loss, 4) +
               " (its fitted floor is " + fmt::number(c.fit.E, 4) + ")";
    return e;
  }
  e.candidate_tokens = reach;
  e.ratio = reach / e.reference_tokens;
  if (many_fail)
    return too_noisy("in " + std::to_string(e.failed_resamples) + " of " + std::to_string(e.resamples) +
                     " resampled fits the candidate never reaches the reference's final loss");
  e.low = std::min(e.ratio, percentile(ratios, 0.05));
  e.high = std::max(e.ratio, percentile(ratios, 0.95));
  if (e.high - e.low > kConvergenceMaxWidth)
    return too_noisy("the ratio's 90% interval runs from " + fmt::number(e.low, 3) + " to " + fmt::number(e.high, 3) + ", wider than 0.2");
  if (reach < c.fit.first_tokens) {
    e.state = ConvergenceState::NonOverlapping;
    e.reason = "the candidate's curve starts below the reference's final loss of " + fmt::number(e.target_loss, 4) +
               ": it says nothing about the tokens to get there";
    return e;
  }
  if (reach > kConvergenceMaxExtrapolation * c.fit.last_tokens) {
    e.state = ConvergenceState::TooShort;
    e.reason = "the candidate's curve ends at a loss of " + fmt::number(c.fit.loss_at(c.fit.last_tokens), 4) + " after " +
               tokens_text(c.fit.last_tokens) + " tokens, above the reference's final " + fmt::number(e.target_loss, 4) +
               ": run it longer (to within 25% of where it reaches that loss)";
    return e;
  }
  e.state = ConvergenceState::Measured;
  return e;
}

}  // namespace

ConvergenceEstimate estimate_convergence(const std::vector<LossPoint>& candidate, const std::vector<LossPoint>& reference) {
  ConvergenceEstimate e = estimate(candidate, reference);
  if (!e.measured()) e.ratio = e.low = e.high = e.candidate_tokens = 0;  // no guessed number
  return e;
}

ConvergenceEstimate convergence_of(const PilotMeasurement& pilot) {
  struct Entry {
    std::vector<LossPoint> candidate, reference;
    ConvergenceEstimate estimate;
  };
  thread_local std::vector<Entry> cache;  // the last few, newest last
  auto same = [](const std::vector<LossPoint>& a, const std::vector<LossPoint>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].tokens != b[i].tokens || a[i].loss != b[i].loss) return false;
    return true;
  };
  for (const Entry& x : cache)
    if (same(x.candidate, pilot.loss) && same(x.reference, pilot.reference_loss)) return x.estimate;
  if (cache.size() >= 4) cache.erase(cache.begin());
  cache.push_back({pilot.loss, pilot.reference_loss, estimate_convergence(pilot.loss, pilot.reference_loss)});
  return cache.back().estimate;
}

}  // namespace traincost
