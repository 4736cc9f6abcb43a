/*
 * The default image directory of the installed simulation library (libweft_sim.so):
 * <the library's directory>/weft/images, found with dladdr() at run time, so an install
 * moved to another prefix (cmake --install --prefix, a package) still finds its images.
 * Compiled only into the shared library; fabric.cpp declares the function weak.
 */
#include <dlfcn.h>

#include <string>

extern "C" const char *weft_sim_installed_image_dir(void);

extern "C" const char *weft_sim_installed_image_dir(void)
{
    // Worked out once (a thread-safe static); empty if dladdr cannot say.
    static const std::string dir = [] {
        Dl_info info;
        if (dladdr(reinterpret_cast<void *>(&weft_sim_installed_image_dir), &info) == 0 ||
            info.dli_fname == nullptr)
            return std::string();
        std::string lib(info.dli_fname);
        size_t slash = lib.rfind('/');
        return (slash == std::string::npos ? std::string(".") : lib.substr(0, slash)) +
               "/weft/images";
    }();
    return dir.empty() ? nullptr : dir.c_str();
}
