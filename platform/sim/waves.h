// Waveforms on demand (docs/waves.md): which slots record their thread's signals into
// FST files, over which window of fabric cycles. Asked for at run time, never by a
// rebuild: every image is verilated with tracing (cmake/WeftThread.cmake) and records
// nothing until the fabric opens a file for it.
#ifndef WEFT_SIM_WAVES_H
#define WEFT_SIM_WAVES_H

#include <cstdint>
#include <string>
#include <vector>

namespace weft::sim
{

/** One slot's request, and the state of its recording. */
struct WaveRequest {
    bool wanted = false;
    uint64_t from = 0;        ///< first fabric cycle recorded
    uint64_t to = UINT64_MAX; ///< last fabric cycle recorded
    std::string file;         ///< FST file of the first image loaded in the window
    unsigned loaded = 0;      ///< images loaded into the slot while it was wanted
    bool open = false;        ///< the slot's model has a file open
};

/**
 * Parse a waveform request: entries separated by ';', each of fields "key=value"
 * separated by spaces or commas: slot (required, < nslots), from and to (fabric cycles,
 * from <= to; default all), file (default weft-slot<N>.fst). Fills out (one entry per
 * slot) or returns false with *why naming what was wrong. An empty text asks for nothing.
 */
bool parse_wave_requests(const char *text, unsigned nslots, std::vector<WaveRequest> *out,
                         std::string *why);

/** The file of the k-th image (from 0) a slot records: file, then <stem>-<k><ext>. */
std::string wave_file_name(const std::string &file, unsigned k);

} // namespace weft::sim

#endif // WEFT_SIM_WAVES_H
