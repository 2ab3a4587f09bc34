// Dear ImGui configuration for the TrainCost page (IMGUI_USER_CONFIG points here).
#pragma once

// The page has no file system: settings go to localStorage through the app, not imgui.ini.
#define IMGUI_DISABLE_FILE_FUNCTIONS
// No demo or debug windows in the product.
#define IMGUI_DISABLE_DEMO_WINDOWS
#define IMGUI_DISABLE_METRICS_WINDOW
#define IMGUI_DISABLE_OBSOLETE_FUNCTIONS
