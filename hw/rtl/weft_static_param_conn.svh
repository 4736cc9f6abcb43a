// Passes every weft_static parameter (weft_static_params.svh) on under its own name, for
// a top that wraps weft_static: include it in the instance's parameter list.
    .NumSlots      (NumSlots),
    .NumLinks      (NumLinks),
    .ClockMhz      (ClockMhz),
    .SlotOsifDepth (SlotOsifDepth),
    .SlotWindows   (SlotWindows),
    .SlotBinds     (SlotBinds),
    .LinkSrc       (LinkSrc),
    .LinkDst       (LinkDst),
    .LinkDepth     (LinkDepth),
    .FriRate       (FriRate),
    .SyncObjs      (SyncObjs),
    .SyncSwCtx     (SyncSwCtx),
    .TmThreads     (TmThreads),
    .TmPrios       (TmPrios),
    .TmEvents      (TmEvents),
    .TmTimers      (TmTimers),
    .Fri           (Fri)
